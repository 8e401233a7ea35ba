// Gatehouse in a Hono app through the Web-standard handler (`gatehouse.fetch`), on Node with
// @hono/node-server: `node examples/hono/server.mjs` (PORT, default 3000). The same route works
// on Bun and Deno with their own `serve`.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as gatehouseServer from 'gatehouse-server/server';
import { announce, exampleSettings, homePage, startExampleGatehouse } from '../hosts/setup.mjs';

const settings = exampleSettings(dirname(fileURLToPath(import.meta.url)));
const auth = await startExampleGatehouse(settings, gatehouseServer);

const app = new Hono();
app.all('/auth/*', (c) => auth.gatehouse.fetch(c.req.raw, { clientAddress: c.env?.incoming?.socket?.remoteAddress }));
app.get('/', async (c) => c.html(homePage(await auth.getUser(c.req.raw), auth, 'Hono')));
const server = serve({ fetch: app.fetch, port: settings.port }, () => {
  announce({ ...settings, ...auth }, () => new Promise((resolve) => server.close(resolve)).then(() => auth.gatehouse.close()));
});
