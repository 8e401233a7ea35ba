// Gatehouse in an Express 5 app, mounted with `app.use('/auth', …)`: `node examples/express/server.mjs`
// (PORT, default 3000). expressHandler serves req.originalUrl, as Express removes the mount path.
import express from 'express';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as gatehouseServer from 'gatehouse-server/server';
const { expressHandler } = gatehouseServer;
import { announce, exampleSettings, homePage, startExampleGatehouse } from '../hosts/setup.mjs';

const settings = exampleSettings(dirname(fileURLToPath(import.meta.url)));
const auth = await startExampleGatehouse(settings, gatehouseServer);

const app = express();
app.use('/auth', expressHandler(auth.gatehouse)); // before any body parser
app.get('/', async (req, res) => {
  res.type('html').send(homePage(await auth.getUser(req), auth, 'Express'));
});
const server = app.listen(settings.port, () =>
  announce({ ...settings, ...auth }, () => new Promise((resolve) => server.close(resolve)).then(() => auth.gatehouse.close())),
);
