// Gatehouse on plain node:http, mounted under /auth: `node examples/node-http/server.mjs` (PORT,
// default 3000). The home page shows the signed-in user (getUser) or links to sign in and up.
import { createServer } from 'node:http';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as gatehouseServer from 'gatehouse-server/server';
import { announce, exampleSettings, homePage, startExampleGatehouse } from '../hosts/setup.mjs';

const settings = exampleSettings(dirname(fileURLToPath(import.meta.url)));
const auth = await startExampleGatehouse(settings, gatehouseServer);

const server = createServer(async (req, res) => {
  if (req.url !== '/') return auth.gatehouse.handler(req, res); // 404 outside /auth
  const user = await auth.getUser(req);
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(homePage(user, auth, 'node:http'));
});
server.listen(settings.port, () =>
  announce({ ...settings, ...auth }, () => new Promise((resolve) => server.close(resolve)).then(() => auth.gatehouse.close())),
);
