import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError, resolveServerConfig } from '../../server-bin/config.ts';
import { startServer } from '../../server-bin/serve.ts';
import { SEED_KEYS, SERVER_HEADERS } from './process.ts';

/**
 * A client that trickles its request is cut off. Node's defaults let a body
 * sent at a byte a second hold a connection for 5 minutes (`requestTimeout` 300 s, checked every
 * 30 s); the embedded server now bounds the headers and the whole request
 * (GATEHOUSE_HTTP_HEADERS_TIMEOUT, GATEHOUSE_HTTP_REQUEST_TIMEOUT, defaults 10 s and 30 s).
 */
const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function start(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-slow-'));
  temps.push(dir);
  return startServer(resolveServerConfig(['--port', '0', '--data-dir', dir], { ...SEED_KEYS, ...env }), { logLevel: 'silent' });
}

/**
 * Sends a POST whose 1,000-byte body goes out one byte every `everyMs`, until the server answers
 * or closes. Resolves with what the server sent and how long the connection lived, in ms.
 */
function trickle(url: string, everyMs: number): Promise<{ raw: string; ms: number }> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let raw = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      const head = [
        `POST /api/v1/users HTTP/1.1`,
        `host: ${hostname}:${port}`,
        'content-length: 1000',
        ...Object.entries(SERVER_HEADERS).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ].join('\r\n');
      socket.write(head);
      timer = setInterval(() => {
        if (!socket.destroyed) socket.write(' ');
      }, everyMs);
    });
    socket.setEncoding('utf8').on('data', (d: string) => {
      raw += d;
    });
    socket.on('error', () => {
      /* a reset after the answer ends it too */
    });
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ raw, ms: Date.now() - started });
    });
    // Well past any bound under test: a connection still open then fails the test.
    setTimeout(() => {
      if (!socket.destroyed) {
        clearInterval(timer);
        socket.destroy();
        reject(new Error(`connection still open after 60 s; received: ${raw}`));
      }
    }, 60_000).unref();
  });
}

describe('slow clients (issue 27 finding 9)', () => {
  it('answers 408 and closes a connection whose body trickles in past GATEHOUSE_HTTP_REQUEST_TIMEOUT', { timeout: 90_000 }, async () => {
    const running = await start({ GATEHOUSE_HTTP_HEADERS_TIMEOUT: '1s', GATEHOUSE_HTTP_REQUEST_TIMEOUT: '2s' });
    try {
      const { raw, ms } = await trickle(running.url, 250);
      assert.match(raw, /^HTTP\/1\.1 408 /, raw);
      // 2 s plus the once-a-second check; the bound is generous for a loaded machine.
      assert.ok(ms < 30_000, `the connection lived ${ms} ms`);
    } finally {
      await running.stop();
    }
  });

  it("bounds headers, whole requests and idle keep-alive by default (10 s, 30 s, 5 s), not Node's 60 s and 5 min", async () => {
    const running = await start();
    try {
      assert.equal(running.server.headersTimeout, 10_000);
      assert.equal(running.server.requestTimeout, 30_000);
      assert.equal(running.server.keepAliveTimeout, 5_000);
    } finally {
      await running.stop();
    }
  });

  it('refuses a headers timeout longer than the request timeout with a one-line ConfigError', () => {
    assert.throws(
      () => resolveServerConfig([], { GATEHOUSE_HTTP_HEADERS_TIMEOUT: '40s', GATEHOUSE_HTTP_REQUEST_TIMEOUT: '30s' }),
      ConfigError,
    );
    assert.throws(() => resolveServerConfig([], { GATEHOUSE_HTTP_REQUEST_TIMEOUT: 'soon' }), ConfigError);
  });
});
