// Gatehouse in a Fastify 5 app, registered under the prefix /auth: `node examples/fastify/server.mjs`
// (PORT, default 3000). fastifyPlugin hands the raw request to Gatehouse (no body parsing in its scope).
import Fastify from 'fastify';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as gatehouseServer from 'gatehouse-server/server';
const { fastifyPlugin } = gatehouseServer;
import { announce, exampleSettings, homePage, startExampleGatehouse } from '../hosts/setup.mjs';

const settings = exampleSettings(dirname(fileURLToPath(import.meta.url)));
const auth = await startExampleGatehouse(settings, gatehouseServer);

const app = Fastify();
await app.register(fastifyPlugin(auth.gatehouse), { prefix: '/auth' });
app.get('/', async (request, reply) => reply.type('text/html; charset=utf-8').send(homePage(await auth.getUser(request), auth, 'Fastify')));
await app.listen({ port: settings.port, host: 'localhost' });
announce({ ...settings, ...auth }, () => app.close().then(() => auth.gatehouse.close()));
