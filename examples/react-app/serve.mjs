#!/usr/bin/env node
// One command for the example: `npm run example` (or `node examples/react-app/serve.mjs`).
// Starts Gatehouse in-process (library mode, SQLite under examples/react-app/.gatehouse-data),
// creates a project for the example app on the first run (kept in that folder), builds the app
// (build.mjs) and serves, on one origin (default http://localhost:3000, PORT to change):
//   /app/*                the example React app
//   everything else       Gatehouse: API (/api/v1), the project's hosted pages
//                         (/projects/<id>/handler/*) and the dashboard (/)
// See README.md in this folder.
import { register } from 'tsx/esm/api';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildExample, exampleHtml } from './build.mjs';

register();
const here = dirname(fileURLToPath(import.meta.url));
const { createGatehouse } = await import('../../server-bin/index.ts');

const port = Number(process.env.PORT ?? 3000);
const origin = `http://localhost:${port}`;
const dataDir = process.env.EXAMPLE_DATA_DIR ?? join(here, '.gatehouse-data');
const stateFile = join(dataDir, 'example.json');
mkdirSync(dataDir, { recursive: true });

// The internal project's keys are chosen here (seeded) so this script can create the example's
// project through the API on the first run; an app of your own would use the dashboard instead.
const state = existsSync(stateFile)
  ? JSON.parse(readFileSync(stateFile, 'utf8'))
  : {
      internal: {
        publishableClientKey: `pck_${randomBytes(24).toString('hex')}`,
        secretServerKey: `ssk_${randomBytes(24).toString('hex')}`,
        superSecretAdminKey: `sak_${randomBytes(24).toString('hex')}`,
      },
    };
writeFileSync(stateFile, JSON.stringify(state, null, 2), { mode: 0o600 });

const gatehouse = await createGatehouse({
  dataDir,
  baseUrl: origin,
  seedKeys: state.internal,
  environment: 'development',
  onFirstStartNotice: false,
});

/** Calls Gatehouse's API in-process (no socket), as the given project and access type. */
async function call(method, path, headers, body) {
  const { inProcessTransport } = await import('../../sdk/in-process.ts');
  const res = await inProcessTransport(gatehouse)({
    method,
    path,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
  return res.text ? JSON.parse(res.text) : null;
}

if (!state.projectId) {
  const internalServer = {
    'x-stack-project-id': 'internal',
    'x-stack-access-type': 'server',
    'x-stack-secret-server-key': state.internal.secretServerKey,
  };
  const internalClient = {
    'x-stack-project-id': 'internal',
    'x-stack-access-type': 'client',
    'x-stack-publishable-client-key': state.internal.publishableClientKey,
  };
  // The project's owner: a dashboard user with a known password, so you can open the dashboard too.
  const ownerPassword = randomBytes(12).toString('base64url');
  const owner = await call('POST', '/users', internalServer, {
    primary_email: 'owner@example.com',
    primary_email_auth_enabled: true,
    primary_email_verified: true,
    password: ownerPassword,
    display_name: 'Example owner',
  });
  const session = await call('POST', '/auth/sessions', internalServer, {
    user_id: owner.id,
    expires_in_millis: 3_600_000,
    is_impersonation: false,
  });
  const me = await call('GET', '/users/me', { ...internalClient, 'x-stack-access-token': session.access_token });
  const project = await call(
    'POST',
    '/internal/projects',
    { ...internalClient, 'x-stack-access-token': session.access_token },
    {
      display_name: 'Example app',
      owner_team_id: me.selected_team_id,
      config: {
        credential_enabled: true,
        sign_up_enabled: true,
        allow_localhost: true,
        domains: [{ domain: origin, handler_path: '/handler' }],
      },
    },
  );
  state.projectId = project.id;
  state.owner = { email: 'owner@example.com', password: ownerPassword };
  writeFileSync(stateFile, JSON.stringify(state, null, 2), { mode: 0o600 });
}

const handlerPath = `/projects/${state.projectId}/handler`;
const js = await buildExample();
const html = exampleHtml({ projectId: state.projectId, baseUrl: origin, handler: handlerPath });
const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0];
  if (path === '/app/example.js') {
    res.setHeader('content-type', 'text/javascript');
    res.end(js);
    return;
  }
  if (path === '/app' || path.startsWith('/app/')) {
    res.setHeader('content-type', 'text/html');
    res.end(html);
    return;
  }
  if (path === '/') {
    res.statusCode = 302;
    res.setHeader('location', '/app');
    res.end();
    return;
  }
  gatehouse.handler(req, res);
});
server.listen(port, () => {
  process.stderr.write(
    [
      '',
      `Example app:      ${origin}/app`,
      `Sign up:          ${origin}${handlerPath}/sign-up`,
      `Project id:       ${state.projectId} (created on the first run; state in ${stateFile})`,
      `Dashboard:        ${origin}/projects (sign in as ${state.owner.email}, password ${state.owner.password})`,
      'Stop with Ctrl+C.',
      '',
    ].join('\n'),
  );
});
const stop = () => server.close(() => gatehouse.close().then(() => process.exit(0)));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
