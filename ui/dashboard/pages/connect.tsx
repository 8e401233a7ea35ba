import type { AdminProject } from '../project.ts';
import { CopyButton, Section, useApi } from '../kit.tsx';
import { Link } from '../router.tsx';

/** The URLs an app of `projectId` needs from a Gatehouse at `base` (origin plus any mount prefix). */
export function connectUrls(base: string, projectId: string) {
  const handler = projectId === 'internal' ? `${base}/handler` : `${base}/projects/${projectId}/handler`;
  return {
    /** What the SDKs call `baseUrl` (without `/api/v1`). */
    baseUrl: base,
    api: `${base}/api/v1`,
    handler,
    signIn: `${handler}/sign-in`,
    signUp: `${handler}/sign-up`,
    accountSettings: `${handler}/account-settings`,
    signOut: `${handler}/sign-out`,
  };
}

type Urls = ReturnType<typeof connectUrls>;

/**
 * How to install Gatehouse's packages while they are not on the npm registry: their tarballs
 * (`npm pack` output, `<name>-<version>.tgz`) from a release, or as a checkout writes them
 * (`npm run build:packages` → dist/packages/*.tgz; `npm pack` at the root for the server), all in
 * one `npm i` so gatehouse-react's dependency on gatehouse-sdk is met by the SDK's tarball.
 * `others` come from the registry as usual (test/packages/publish.test.ts runs the line).
 */
export function installLines(packages: string[], others: string[]): string[] {
  const rest = others.length ? ` ${others.join(' ')}` : '';
  const tarball = (name: string) =>
    name === 'gatehouse-server' ? `<checkout>/gatehouse-server-<version>.tgz` : `<checkout>/dist/packages/${name}-<version>.tgz`;
  return [
    '// Not on the npm registry yet: install the release tarballs in one command, or build them in a',
    '// Gatehouse checkout (`npm run build:packages` packs the SDK and React ones; `npm pack` the server):',
    `// npm i ${packages.map(tarball).join(' ')}${rest}`,
  ];
}

/** `@stackframe/js`, Stack's own SDK, pointed at this Gatehouse and its hosted pages. */
export function stackSnippet(projectId: string, urls: Urls): string {
  return [
    '// npm i @stackframe/js',
    "import { StackClientApp } from '@stackframe/js';",
    '',
    'export const stackApp = new StackClientApp({',
    `  baseUrl: '${urls.baseUrl}',`,
    `  projectId: '${projectId}',`,
    "  publishableClientKey: '<publishable client key>',",
    "  tokenStore: 'cookie',",
    "  // Gatehouse's hosted pages; redirectToSignIn() hands the session back to your origin.",
    `  urls: { signIn: '${urls.signIn}', signUp: '${urls.signUp}', accountSettings: '${urls.accountSettings}' },`,
    '});',
  ].join('\n');
}

/** Gatehouse's own SDK and React components (the npm packages gatehouse-sdk and gatehouse-react). */
export function gatehouseSnippet(projectId: string, urls: Urls): string {
  return [
    ...installLines(['gatehouse-sdk', 'gatehouse-react'], ['react', 'react-dom']),
    "import { ClientApp } from 'gatehouse-sdk';",
    "import { GatehouseProvider, SignIn, UserButton, useUser } from 'gatehouse-react';",
    '',
    'const app = new ClientApp({',
    `  baseUrl: '${urls.baseUrl}',`,
    `  projectId: '${projectId}',`,
    "  publishableClientKey: '<publishable client key>',",
    '});',
    '// <GatehouseProvider app={app}><Suspense fallback={null}><UserButton /></Suspense></GatehouseProvider>',
    '',
    '// On your server (Node): the secret server key reads the signed-in user.',
    "import { ServerApp } from 'gatehouse-sdk';",
    `const server = new ServerApp({ baseUrl: '${urls.baseUrl}', projectId: '${projectId}', secretServerKey: process.env.STACK_SECRET_SERVER_KEY, tokenStore: null });`,
    'const user = await server.getUserFromTokens({ headers: request.headers });',
  ].join('\n');
}

/** Gatehouse mounted inside a Node app (library mode): its own database, no separate server. */
export function mountSnippet(projectId: string): string {
  return [
    ...installLines(['gatehouse-server', 'gatehouse-sdk'], []),
    "import { createServer } from 'node:http';",
    "import { createGatehouse } from 'gatehouse-server/server';",
    "import { ServerApp } from 'gatehouse-sdk';",
    '',
    "const gatehouse = await createGatehouse({ dataDir: './gatehouse-data', baseUrl: 'http://localhost:3000/auth', mountPath: '/auth' });",
    "createServer((req, res) => req.url?.startsWith('/auth') ? gatehouse.handler(req, res) : res.end('my app')).listen(3000);",
    '',
    '// Calls go to the mounted handler without a socket; the mount path is taken from gatehouse.',
    `const server = new ServerApp({ projectId: '${projectId}', secretServerKey: process.env.STACK_SECRET_SERVER_KEY, gatehouse, tokenStore: null });`,
  ].join('\n');
}

/** The environment variables Stack's SDKs read (names as upstream), without secret values. */
export function envSnippetFor(projectId: string, urls: Urls): string {
  return [
    `NEXT_PUBLIC_STACK_API_URL=${urls.baseUrl}`,
    `NEXT_PUBLIC_STACK_PROJECT_ID=${projectId}`,
    'NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY=<publishable client key>',
    'STACK_SECRET_SERVER_KEY=<secret server key>',
  ].join('\n');
}

function Snippet(props: { label: string; text: string; testId: string }) {
  return (
    <>
      <pre className="d-snippet" data-testid={props.testId} tabIndex={0} aria-label={props.label}>
        {props.text}
      </pre>
      <div className="d-row">
        <CopyButton text={props.text} label={props.label} />
      </div>
    </>
  );
}

/**
 * "Connect your app": the project id, base URL and hosted-page URLs to use, and ready snippets for
 * `@stackframe/js`, Gatehouse's SDK and components, and the in-process mount.
 * Key values are never shown here: they are created (and shown once) on the Project keys page.
 */
export function ConnectPage(props: { project: AdminProject }) {
  const api = useApi();
  const base = location.origin + api.prefix;
  const id = props.project.id;
  const urls = connectUrls(base, id);
  const domains: { domain: string }[] = Array.isArray(props.project.config?.domains) ? props.project.config.domains : [];
  const allowLocalhost = props.project.config?.allow_localhost === true;
  const keysLink = <Link to={`/projects/${id}/keys`}>Project keys</Link>;
  return (
    <>
      <div className="d-top">
        <h1>Connect your app</h1>
      </div>
      {id === 'internal' && (
        <p className="d-muted" role="note">
          This is the dashboard's own project. <Link to="/">Create a project</Link> for your app and connect that one instead.
        </p>
      )}
      <Section title="What your app needs" description="Use these values in the snippets below.">
        <dl className="d-connect" data-testid="connect-values">
          <div className="d-row">
            <dt>Project ID</dt>
            <dd className="d-row">
              <code>{id}</code>
              <CopyButton text={id} label="project ID" />
            </dd>
          </div>
          <div className="d-row">
            <dt>Base URL (baseUrl, without /api/v1)</dt>
            <dd className="d-row">
              <code>{urls.baseUrl}</code>
              <CopyButton text={urls.baseUrl} label="base URL" />
            </dd>
          </div>
          <div className="d-row">
            <dt>Hosted sign-in page</dt>
            <dd>
              <code>{urls.signIn}</code>
            </dd>
          </div>
          <div className="d-row">
            <dt>Hosted sign-up page</dt>
            <dd>
              <code>{urls.signUp}</code>
            </dd>
          </div>
          <div className="d-row">
            <dt>Hosted account settings</dt>
            <dd>
              <code>{urls.accountSettings}</code>
            </dd>
          </div>
          <div className="d-row">
            <dt>Keys</dt>
            <dd>
              Create a publishable client key (browser) and a secret server key (server) on the {keysLink} page; their values are shown
              once.
            </dd>
          </div>
        </dl>
        <p data-testid="connect-domains">
          {domains.length === 0 ? (
            <>
              No trusted domain yet: after signing in, users cannot be sent back to your app
              {allowLocalhost ? ' (except localhost, allowed for development)' : ''}. Add your app's domain under{' '}
              <Link to={`/projects/${id}/auth-methods`}>Auth methods</Link>.
            </>
          ) : (
            <>
              Trusted domains: {domains.map((d) => d.domain).join(', ')}
              {allowLocalhost ? ', and localhost' : ''}.{' '}
            </>
          )}
        </p>
      </Section>
      <Section
        title="@stackframe/js (Stack Auth's SDK)"
        description="An app already on Stack Auth only changes baseUrl, projectId and the keys."
      >
        <Snippet label="@stackframe/js snippet" text={stackSnippet(id, urls)} testId="snippet-stack" />
      </Section>
      <Section
        title="Gatehouse SDK and React components"
        description="The packages gatehouse-sdk and gatehouse-react (React is a peer dependency)."
      >
        <Snippet label="Gatehouse SDK snippet" text={gatehouseSnippet(id, urls)} testId="snippet-gatehouse" />
      </Section>
      <Section
        title="In-process mount (Node)"
        description="Gatehouse inside your own Node server, with its own database: use the project ID of that database (this one only when it shares this server's data folder or database URL)."
      >
        <Snippet label="In-process mount snippet" text={mountSnippet(id)} testId="snippet-mount" />
      </Section>
      <Section title="Environment variables" description="The names Stack's SDKs read. Fill in the key values from the Project keys page.">
        <Snippet label="Environment variables" text={envSnippetFor(id, urls)} testId="snippet-env" />
      </Section>
    </>
  );
}
