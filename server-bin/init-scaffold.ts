/**
 * The files `gatehouse init` writes into a Vite (React) or Next.js (App Router) app so that
 * `npm run dev` signs users in with no other step: Gatehouse mounted under `/auth` on the app's
 * own origin (Vite: the `gatehouse-server/vite` plugin; Next.js: a catch-all route handler on
 * `gatehouse-server/next`), and the app's sign-in wiring. A file that already exists is never
 * overwritten; the two small edits (vite.config's plugin list, main.jsx's root element) are made
 * only when the file looks as its template wrote it, otherwise the lines to add are returned.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

/** Where Gatehouse is mounted on the app's origin. */
export const MOUNT_PATH = '/auth';

/** What scaffolding did: files written, files left alone, and edits to make by hand. */
export interface ScaffoldResult {
  written: string[];
  kept: string[];
  manual: string[];
}

async function writeNew(dir: string, file: string, text: string, result: ScaffoldResult) {
  const path = join(dir, file);
  if (existsSync(path)) {
    result.kept.push(file);
    return;
  }
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  result.written.push(file);
}

/** Adds `.gatehouse` (the embedded database) to .gitignore when the app has one. */
async function ignoreData(dir: string, result: ScaffoldResult) {
  const path = join(dir, '.gitignore');
  if (!existsSync(path)) return;
  const text = await readFile(path, 'utf8');
  if (/^\/?\.gatehouse\/?$/m.test(text)) return;
  await writeFile(path, `${text.replace(/\n?$/, '\n')}\n# Gatehouse's development database (gatehouse init)\n.gatehouse\n`);
  result.written.push('.gitignore');
}

const header = '// Written by `gatehouse init`: Gatehouse runs in this app under /auth (README "Connect an app in one command").\n';

/** lib/gatehouse.js of a Next.js app: one Gatehouse per server process, started on first use. */
const nextLib = `${header}// Its database is .gatehouse/ (SQLite); the project's id and keys are in .env.local.
import { headers } from 'next/headers';

export const mountPath = '${MOUNT_PATH}';
export const projectId = process.env.NEXT_PUBLIC_STACK_PROJECT_ID;
/** The project's hosted pages: sign-in, sign-up, sign-out, account-settings, … */
export const handlerUrl = \`\${mountPath}/projects/\${projectId}/handler\`;

/**
 * The Next.js pieces (route handlers, getUser()) of the Gatehouse in this process. Loaded by Node at
 * run time, not bundled (a native database driver); kept on globalThis across development reloads.
 */
export async function auth() {
  const host = (await headers()).get('host') ?? 'localhost:3000';
  globalThis.__gatehouse ??= (async () => {
    const { createGatehouse } = await import(/* turbopackIgnore: true */ /* webpackIgnore: true */ 'gatehouse-server/server');
    const { createNextAuth } = await import(/* turbopackIgnore: true */ /* webpackIgnore: true */ 'gatehouse-server/next');
    const gatehouse = await createGatehouse({
      dataDir: process.env.GATEHOUSE_DATA_DIR ?? '.gatehouse',
      baseUrl: process.env.GATEHOUSE_BASE_URL ?? \`http://\${host}\${mountPath}\`,
      mountPath,
      // next dev: development (the dev OAuth provider, loopback webhooks…); next start: production.
      environment: process.env.GATEHOUSE_ENVIRONMENT ?? (process.env.NODE_ENV === 'production' ? 'production' : 'development'),
      onFirstStartNotice: false,
    });
    return createNextAuth(gatehouse, { projectId, secretServerKey: process.env.STACK_SECRET_SERVER_KEY, headers });
  })();
  return globalThis.__gatehouse;
}
`;

const nextMountRoute = (lib: string) => `${header}import { auth } from '${lib}';

export const dynamic = 'force-dynamic';

const handle = (method) => async (request) => (await auth()).handlers[method](request);
export const GET = handle('GET');
export const HEAD = handle('HEAD');
export const POST = handle('POST');
export const PUT = handle('PUT');
export const PATCH = handle('PATCH');
export const DELETE = handle('DELETE');
export const OPTIONS = handle('OPTIONS');
`;

const nextHandlerRoute = (
  lib: string,
) => `${header}// /handler/sign-in, /handler/sign-up, /handler/sign-out, /handler/account-settings → the hosted pages.
import { handlerUrl } from '${lib}';

export function GET(request, { params }) {
  return params.then(({ page }) => {
    const target = new URL(\`\${handlerUrl}/\${page.join('/')}\`, request.url);
    target.search = new URL(request.url).search;
    return Response.redirect(target, 307);
  });
}
`;

const nextAccountPage = (
  lib: string,
) => `${header}// The signed-in page: the user read on the server; signed-out visitors go to sign-in and come back.
import { redirect } from 'next/navigation';
import { auth } from '${lib}';

export const dynamic = 'force-dynamic';

export default async function Account() {
  const user = await (await auth()).getUser();
  if (!user) redirect('/handler/sign-in?after_auth_return_to=%2Faccount');
  return (
    <main>
      <h1>Signed in as {user.primaryEmail ?? user.id}</h1>
      <p>
        <a href="/handler/account-settings">Account settings</a> · <a href="/handler/sign-out">Sign out</a>
      </p>
    </main>
  );
}
`;

/** Writes the Next.js (App Router) files; `app/` or `src/app/` is taken from the app. */
async function scaffoldNext(dir: string, result: ScaffoldResult) {
  const base = existsSync(join(dir, 'src', 'app')) ? 'src' : '';
  const app = join(base, 'app');
  const lib = join(base, 'lib', 'gatehouse.js');
  const from = (file: string) => {
    const rel = relative(dirname(join(dir, file)), join(dir, lib))
      .split('\\')
      .join('/');
    return rel.startsWith('.') ? rel : `./${rel}`;
  };
  const mount = join(app, 'auth', '[...gatehouse]', 'route.js');
  const handler = join(app, 'handler', '[...page]', 'route.js');
  const account = join(app, 'account', 'page.jsx');
  await writeNew(dir, lib, nextLib, result);
  await writeNew(dir, mount, nextMountRoute(from(mount)), result);
  await writeNew(dir, handler, nextHandlerRoute(from(handler)), result);
  await writeNew(dir, account, nextAccountPage(from(account)), result);
}

/** src/gatehouse.jsx of a Vite app: the ClientApp and a root that shows sign-in until signed in. */
const viteModule = `${header}import { Suspense } from 'react';
import { ClientApp } from 'gatehouse-server/sdk';
import { GatehouseProvider, SignIn, UserButton, useUser } from 'gatehouse-server/react';

const projectId = import.meta.env.VITE_STACK_PROJECT_ID;
// Unset: the Gatehouse in Vite's dev server (the plugin in vite.config.js); set it to a deployed one for production.
const baseUrl = import.meta.env.VITE_STACK_API_URL ?? \`\${window.location.origin}${MOUNT_PATH}\`;

export const gatehouse = new ClientApp({
  baseUrl,
  projectId,
  publishableClientKey: import.meta.env.VITE_STACK_PUBLISHABLE_CLIENT_KEY,
  tokenStore: 'cookie',
  // Sign-up, password reset, email verification, account settings…: Gatehouse's hosted pages.
  urls: { handler: new URL(\`\${baseUrl}/projects/\${projectId}/handler\`).pathname },
});

function SignedIn({ children }) {
  const user = useUser();
  if (!user) return <SignIn />;
  return (
    <>
      <header style={{ display: 'flex', gap: '1em', alignItems: 'center', justifyContent: 'flex-end' }}>
        <span>Signed in as {user.primaryEmail ?? user.id}</span>
        <UserButton />
      </header>
      {children}
    </>
  );
}

/** Wrap the app: sign-in (or sign-up) first, then the app with the signed-in user. */
export function GatehouseRoot({ children }) {
  return (
    <GatehouseProvider app={gatehouse}>
      <Suspense fallback={null}>
        <SignedIn>{children}</SignedIn>
      </Suspense>
    </GatehouseProvider>
  );
}
`;

/** Adds `gatehouse()` to vite.config's plugins, or says how. */
async function patchViteConfig(dir: string, result: ScaffoldResult) {
  const file = ['vite.config.js', 'vite.config.mjs', 'vite.config.ts', 'vite.config.mts'].find((f) => existsSync(join(dir, f)));
  const manual = "vite.config: import { gatehouse } from 'gatehouse-server/vite' and add gatehouse() to plugins";
  if (!file) return void result.manual.push(manual);
  const text = await readFile(join(dir, file), 'utf8');
  if (text.includes('gatehouse-server/vite')) return void result.kept.push(file);
  const plugins = /plugins:\s*\[/.exec(text);
  const lastImport = [...text.matchAll(/^import .*$/gm)].at(-1);
  if (!plugins || !lastImport) return void result.manual.push(manual);
  const at = lastImport.index + lastImport[0].length;
  let patched = `${text.slice(0, at)}\nimport { gatehouse } from 'gatehouse-server/vite';${text.slice(at)}`;
  patched = patched.replace(/plugins:\s*\[/, (m) => `${m}gatehouse(), `);
  await writeFile(join(dir, file), patched);
  result.written.push(file);
}

/** Wraps `<App />` in main.jsx/tsx with `<GatehouseRoot>`, or says how. */
async function patchViteMain(dir: string, result: ScaffoldResult) {
  const file = ['src/main.jsx', 'src/main.tsx'].find((f) => existsSync(join(dir, f)));
  const manual = "src/main.jsx: import { GatehouseRoot } from './gatehouse.jsx' and render <GatehouseRoot><App /></GatehouseRoot>";
  if (!file) return void result.manual.push(manual);
  const text = await readFile(join(dir, file), 'utf8');
  if (text.includes('GatehouseRoot')) return void result.kept.push(file);
  const lastImport = [...text.matchAll(/^import .*$/gm)].at(-1);
  if (!/<App\s*\/>/.test(text) || !lastImport) return void result.manual.push(manual);
  const at = lastImport.index + lastImport[0].length;
  const patched = `${text.slice(0, at)}\nimport { GatehouseRoot } from './gatehouse.jsx';${text.slice(at)}`.replace(
    /<App\s*\/>/,
    '<GatehouseRoot><App /></GatehouseRoot>',
  );
  await writeFile(join(dir, file), patched);
  result.written.push(file);
}

/**
 * Writes the embedded-mode files for `framework` into the app at `dir` (see the module comment).
 * Plain Node apps get nothing: they mount `gatehouse.handler` themselves (README "Library").
 */
export async function scaffold(dir: string, framework: 'vite' | 'next' | 'node'): Promise<ScaffoldResult> {
  const result: ScaffoldResult = { written: [], kept: [], manual: [] };
  if (framework === 'node') return result;
  if (framework === 'next') await scaffoldNext(dir, result);
  else {
    await writeNew(dir, 'src/gatehouse.jsx', viteModule, result);
    await patchViteConfig(dir, result);
    await patchViteMain(dir, result);
  }
  await ignoreData(dir, result);
  return result;
}
