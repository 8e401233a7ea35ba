// Everything under /auth (the API, the hosted pages, the dashboard) goes to gatehouse.fetch.
import { exampleAuth } from '../../../lib/gatehouse.mjs';

export const dynamic = 'force-dynamic';

const handle = (method) => async (request) => (await exampleAuth()).next.handlers[method](request);
export const GET = handle('GET');
export const HEAD = handle('HEAD');
export const POST = handle('POST');
export const PUT = handle('PUT');
export const PATCH = handle('PATCH');
export const DELETE = handle('DELETE');
export const OPTIONS = handle('OPTIONS');
