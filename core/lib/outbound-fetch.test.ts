import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { fetchThroughNode, guardedFetch, isPrivateAddressError } from './outbound-fetch.ts';

// The outbound guard's fetch: refusals, and the node:http path that carries
// every request to a public host in production mode (exercised here on loopback with the default
// lookup, since this machine has no public network).

describe('guardedFetch and fetchThroughNode', () => {
  let server: Server;
  let base: string;
  const seen: { method: string; url: string; body: string; headers: Record<string, unknown> }[] = [];
  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, body, headers: req.headers });
        if (req.url === '/big') {
          res.writeHead(200);
          res.end('x'.repeat(5000));
          return;
        }
        if (req.url === '/moved') {
          res.writeHead(302, { location: 'http://169.254.169.254/' });
          res.end();
          return;
        }
        if (req.url === '/slow') return; // never answers
        res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] });
        res.end(JSON.stringify({ ok: true }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('refuses loopback, private and metadata hosts (literal or by name) with EPRIVATEADDRESS, before any request', async () => {
    const guarded = guardedFetch({ allowPrivate: () => false });
    const before = seen.length;
    const port = new URL(base).port;
    for (const url of [
      `${base}/x`,
      `http://localhost:${port}/x`,
      `http://[::1]:${port}/x`,
      `http://[::ffff:127.0.0.1]:${port}/x`,
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1/',
    ]) {
      await assert.rejects(guarded(url), (error: unknown) => isPrivateAddressError(error), url);
    }
    assert.equal(seen.length, before);
  });

  it('lets a host the policy allows through to the global fetch', async () => {
    const guarded = guardedFetch({ allowPrivate: (host) => host === '127.0.0.1' });
    const res = await guarded(`${base}/ok`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { ok: true });
  });

  it('sends method, headers and a form body, and answers status, headers and body as a Response', async () => {
    const res = await fetchThroughNode(
      new URL(`${base}/token`),
      {
        method: 'POST',
        headers: { authorization: 'Basic abc', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: 'c' }),
      },
      { maxBytes: 1024 },
    );
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal(res.headers.get('set-cookie'), 'a=1, b=2');
    assert.deepEqual(await res.json(), { ok: true });
    const last = seen.at(-1)!;
    assert.equal(last.method, 'POST');
    assert.equal(last.body, 'grant_type=authorization_code&code=c');
    assert.equal(last.headers.authorization, 'Basic abc');
    assert.equal((await fetchThroughNode(new URL(`${base}/missing`), {}, { maxBytes: 1024 })).status, 404);
  });

  it('returns a redirect instead of following it, bounds the body, and stops on abort', async () => {
    const moved = await fetchThroughNode(new URL(`${base}/moved`), {}, { maxBytes: 1024 });
    assert.equal(moved.status, 302);
    assert.equal(moved.headers.get('location'), 'http://169.254.169.254/');
    await assert.rejects(fetchThroughNode(new URL(`${base}/big`), {}, { maxBytes: 1024 }), /larger than 1024 bytes/);
    await assert.rejects(fetchThroughNode(new URL(`${base}/slow`), { signal: AbortSignal.timeout(100) }, { maxBytes: 1024 }));
    await assert.rejects(fetchThroughNode(new URL('file:///etc/passwd'), {}, { maxBytes: 1024 }), /unsupported protocol/);
  });
});
