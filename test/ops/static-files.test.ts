import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { contentTypeFor, embeddedStaticFiles, folderStaticFiles, withStaticFiles } from '../../server-bin/sea/static-files.ts';
import { isSea } from '../../server-bin/sea/native.ts';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-static-'));
before(() => {
  mkdirSync(join(dir, 'handler', 'assets'), { recursive: true });
  mkdirSync(join(dir, 'api'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<p>dashboard</p>');
  writeFileSync(join(dir, 'handler', 'index.html'), '<p>handler</p>');
  writeFileSync(join(dir, 'handler', 'assets', 'app.js'), 'export {}');
  writeFileSync(join(dir, 'api', 'v1'), 'must never be served');
  writeFileSync(join(dir, 'secret.txt'), 'outside the mount');
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('static files', () => {
  it('folderStaticFiles finds exact files, folder index.html and single-page fallbacks, nothing else', () => {
    const files = folderStaticFiles(join(dir, 'handler'), '/handler', { '/handler/': '/handler/index.html' });
    assert.equal(files.size, 2);
    assert.equal(files.get('/handler/assets/app.js')?.body.toString(), 'export {}');
    assert.equal(files.get('/handler/assets/app.js')?.contentType, 'text/javascript; charset=utf-8');
    assert.equal(files.get('/handler/index.html')?.body.toString(), '<p>handler</p>');
    assert.equal(files.get('/handler')?.body.toString(), '<p>handler</p>');
    assert.equal(files.get('/handler/sign-in')?.body.toString(), '<p>handler</p>', 'client-side route');
    assert.equal(files.get('/handler/../secret.txt'), undefined);
    assert.equal(files.get('/handler/%2e%2e/secret.txt'), undefined);
    assert.equal(files.get('/handler/%E0%A4%A'), undefined, 'bad percent-encoding');
    assert.equal(files.get('/secret.txt'), undefined);
    assert.equal(files.get('/other'), undefined);
  });

  it('contentTypeFor maps extensions and defaults to octet-stream', () => {
    assert.equal(contentTypeFor('a.html'), 'text/html; charset=utf-8');
    assert.equal(contentTypeFor('a.CSS'), 'text/css; charset=utf-8');
    assert.equal(contentTypeFor('a.svg'), 'image/svg+xml');
    assert.equal(contentTypeFor('a.bin'), 'application/octet-stream');
  });

  it('embeddedStaticFiles is empty outside the single executable', () => {
    assert.equal(isSea(), false);
    assert.equal(embeddedStaticFiles().size, 0);
    assert.equal(embeddedStaticFiles().get('/'), undefined);
  });

  it('withStaticFiles serves GET/HEAD of files and passes API, health, other methods and misses through', async () => {
    const files = folderStaticFiles(dir, '/', { '/': '/index.html' });
    const seen: string[] = [];
    const inner = (req: IncomingMessage, res: ServerResponse) => {
      seen.push(`${req.method} ${req.url}`);
      res.end('inner');
    };
    const server = createServer(withStaticFiles(inner, files));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const page = await fetch(`${url}/handler/assets/app.js?v=1`);
      assert.equal(page.status, 200);
      assert.equal(await page.text(), 'export {}');
      assert.equal(page.headers.get('cache-control'), 'no-cache');
      const etag = page.headers.get('etag');
      assert.match(etag ?? '', /^"[A-Za-z0-9_-]{27}"$/);
      const revalidated = await fetch(`${url}/handler/assets/app.js`, { headers: { 'if-none-match': `"other", ${etag}` } });
      assert.equal(revalidated.status, 304);
      assert.equal(await revalidated.text(), '');
      const changed = await fetch(`${url}/handler/assets/app.js`, { headers: { 'if-none-match': '"other"' } });
      assert.equal(changed.status, 200);
      const spa = await fetch(`${url}/projects/123`);
      assert.equal(await spa.text(), '<p>dashboard</p>');
      assert.equal(spa.headers.get('cache-control'), 'no-cache');
      const head = await fetch(`${url}/`, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('content-length'), String('<p>dashboard</p>'.length));
      assert.equal(await head.text(), '');
      assert.equal(await (await fetch(`${url}/api/v1`)).text(), 'inner');
      assert.equal(await (await fetch(`${url}/health/ready`)).text(), 'inner');
      assert.equal(await (await fetch(`${url}/`, { method: 'POST' })).text(), 'inner');
      assert.deepEqual(seen, ['GET /api/v1', 'GET /health/ready', 'POST /']);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('withStaticFiles with no files is the handler itself', () => {
    const inner = () => {};
    assert.equal(withStaticFiles(inner, { size: 0, get: () => undefined }), inner);
  });
});

describe('static files compression', () => {
  it('serves large text files gzipped to clients that accept it, plain to the rest', async () => {
    const big = mkdtempSync(join(tmpdir(), 'gatehouse-static-gz-'));
    const source = `export const words = ${JSON.stringify('gatehouse '.repeat(2000))};\n`;
    writeFileSync(join(big, 'bundle.js'), source);
    const files = folderStaticFiles(big, '/');
    const server = createServer(
      withStaticFiles((_req, res) => {
        res.statusCode = 404;
        res.end();
      }, files),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/bundle.js`;
    const { request } = await import('node:http');
    const raw = (headers: Record<string, string>) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        request(url, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        })
          .on('error', reject)
          .end();
      });
    try {
      const { gunzipSync } = await import('node:zlib');
      const gz = await raw({ 'accept-encoding': 'gzip, deflate' });
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.equal(gz.headers.vary, 'accept-encoding');
      assert.ok(gz.body.length < source.length / 10);
      assert.equal(gunzipSync(gz.body).toString(), source);
      const plain = await raw({});
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.body.toString(), source);
    } finally {
      server.close();
      rmSync(big, { recursive: true, force: true });
    }
  });
});
