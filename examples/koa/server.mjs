// Gatehouse in a Koa app as middleware (`gatehouse.middleware` serves /auth, passes the rest on):
// `node examples/koa/server.mjs` (PORT, default 3000).
import Koa from 'koa';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as gatehouseServer from 'gatehouse-server/server';
import { announce, exampleSettings, homePage, startExampleGatehouse } from '../hosts/setup.mjs';

const settings = exampleSettings(dirname(fileURLToPath(import.meta.url)));
const auth = await startExampleGatehouse(settings, gatehouseServer);

const app = new Koa();
app.use(auth.gatehouse.middleware);
app.use(async (ctx) => {
  if (ctx.path !== '/') return; // Koa answers 404
  ctx.type = 'html';
  ctx.body = homePage(await auth.getUser(ctx.req), auth, 'Koa');
});
const server = app.listen(settings.port, () =>
  announce({ ...settings, ...auth }, () => new Promise((resolve) => server.close(resolve)).then(() => auth.gatehouse.close())),
);
