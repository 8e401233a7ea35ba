// What every host example shares: Gatehouse in-process, mounted under /auth, with a project for
// the example app (created on the first run through the API, in-process; kept in the data folder)
// and a `getUser(request)` for that project. An app of your own gets its project and keys from
// the dashboard instead (or `gatehouse init`).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The path every example mounts Gatehouse under. */
export const MOUNT = '/auth';

/**
 * Starts Gatehouse for an example app served at `origin` (e.g. http://localhost:3000).
 * `dataDir`: SQLite and the example's state. `server` is the app's own import of
 * `gatehouse-server/server` (so that each app resolves the package as it would when installed).
 * Returns the Gatehouse, the project's id, the sign-in and sign-up page URLs (relative) and
 * `getUser(request)`.
 */
export async function startExampleGatehouse({ origin, dataDir }, { createGatehouse, createUserReader }) {
  mkdirSync(dataDir, { recursive: true });
  const stateFile = join(dataDir, 'example.json');
  const state = existsSync(stateFile)
    ? JSON.parse(readFileSync(stateFile, 'utf8'))
    : {
        internal: {
          publishableClientKey: `pck_${randomBytes(24).toString('hex')}`,
          secretServerKey: `ssk_${randomBytes(24).toString('hex')}`,
          superSecretAdminKey: `sak_${randomBytes(24).toString('hex')}`,
        },
      };
  const gatehouse = await createGatehouse({
    dataDir,
    baseUrl: `${origin}${MOUNT}`,
    mountPath: MOUNT,
    seedKeys: state.internal,
    environment: 'development',
    onFirstStartNotice: false,
  });
  if (!state.project) {
    state.project = await createExampleProject(gatehouse, state.internal, origin);
    writeFileSync(stateFile, JSON.stringify(state, null, 2), { mode: 0o600 });
  }
  const { id: projectId, secretServerKey } = state.project;
  const handler = `${MOUNT}/projects/${projectId}/handler`;
  return {
    gatehouse,
    projectId,
    secretServerKey,
    signInUrl: `${handler}/sign-in`,
    signUpUrl: `${handler}/sign-up`,
    getUser: createUserReader(gatehouse, { projectId, secretServerKey }),
  };
}

/** The example app's page: who is signed in, or links to sign in and up. */
export function homePage(user, { signInUrl, signUpUrl }, host) {
  const escape = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const body = user
    ? `<h1>Signed in as ${escape(user.primaryEmail ?? user.id)}</h1>`
    : `<h1>Not signed in</h1><p><a href="${signInUrl}?after_auth_return_to=%2F">Sign in</a> · <a href="${signUpUrl}?after_auth_return_to=%2F">Sign up</a></p>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>Gatehouse on ${escape(host)}</title></head><body>${body}<p>Served by ${escape(host)}; Gatehouse at ${MOUNT}.</p></body></html>`;
}

/** Calls the API in-process through `gatehouse.dispatch`; throws on an error answer. */
async function call(gatehouse, method, path, headers, body) {
  const res = await gatehouse.dispatch({
    method,
    path: `/api/v1${path}`,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
  return res.text ? JSON.parse(res.text) : null;
}

/** Creates the example's owner, project (password sign-in, sign-up open, localhost trusted) and keys. */
async function createExampleProject(gatehouse, internal, origin) {
  const internalServer = {
    'x-stack-project-id': 'internal',
    'x-stack-access-type': 'server',
    'x-stack-secret-server-key': internal.secretServerKey,
  };
  const internalClient = {
    'x-stack-project-id': 'internal',
    'x-stack-access-type': 'client',
    'x-stack-publishable-client-key': internal.publishableClientKey,
  };
  const owner = await call(gatehouse, 'POST', '/users', internalServer, {
    primary_email: 'owner@example.com',
    primary_email_auth_enabled: true,
    primary_email_verified: true,
    password: randomBytes(12).toString('base64url'),
  });
  const session = await call(gatehouse, 'POST', '/auth/sessions', internalServer, {
    user_id: owner.id,
    expires_in_millis: 3_600_000,
    is_impersonation: false,
  });
  const me = await call(gatehouse, 'GET', '/users/me', { ...internalClient, 'x-stack-access-token': session.access_token });
  const project = await call(
    gatehouse,
    'POST',
    '/internal/projects',
    { ...internalClient, 'x-stack-access-token': session.access_token },
    {
      display_name: 'Host example',
      owner_team_id: me.selected_team_id,
      config: {
        credential_enabled: true,
        sign_up_enabled: true,
        allow_localhost: true,
        domains: [{ domain: origin, handler_path: '/handler' }],
      },
    },
  );
  const keys = await call(
    gatehouse,
    'POST',
    '/internal/api-keys',
    { 'x-stack-project-id': project.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': session.access_token },
    {
      description: 'host example',
      expires_at_millis: null,
      has_publishable_client_key: true,
      has_secret_server_key: true,
      has_super_secret_admin_key: false,
    },
  );
  return { id: project.id, secretServerKey: keys.secret_server_key };
}

/** The port (PORT, default 3000), origin and data folder of an example started from `here`. */
export function exampleSettings(here) {
  const port = Number(process.env.PORT ?? 3000);
  return { port, origin: `http://localhost:${port}`, dataDir: process.env.EXAMPLE_DATA_DIR ?? join(here, '.gatehouse-data') };
}

/** Logs the URLs once listening (the test waits for the `listening` line) and stops on signals. */
export function announce({ origin, signUpUrl }, stop) {
  process.stdout.write(`listening ${origin}\nSign up: ${origin}${signUpUrl}\n`);
  const exit = () => Promise.resolve(stop()).then(() => process.exit(0));
  process.once('SIGINT', exit);
  process.once('SIGTERM', exit);
}
