import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { describeWithServer } from '../helpers/suite.ts';
import { createGatehouse } from '../../server-bin/index.ts';
import { createSqliteAdapter } from '../../adapters/sqlite/index.ts';
import { createJsonLogger } from '../../server-bin/logger.ts';
import { ConfigError, resolveBackupConfig, resolveServerConfig } from '../../server-bin/config.ts';
import { startServer } from '../../server-bin/serve.ts';
import { backupSqlite } from '../../server-bin/backup.ts';
import { SEED_KEYS, SERVER_HEADERS, slowRequest, spawnGatehouse } from './process.ts';
import { GATEHOUSE_CLI } from '../helpers/gatehouse-cli.ts';

const CLI = [...GATEHOUSE_CLI];
const temps: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-ops-'));
  temps.push(dir);
  return dir;
}
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function countUsers(file: string, email?: string): number {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const row = email
      ? (db.prepare('select count(*) as n from users where primary_email = ?').get(email) as { n: number })
      : (db.prepare('select count(*) as n from users').get() as { n: number });
    return row.n;
  } finally {
    db.close();
  }
}

describeWithServer('health endpoints', (get) => {
  it('GET /health answers 200 {status: ok} without touching the database', async () => {
    const res = await fetch(`${get().url}/health`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ok' });
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  it('GET /health/ready answers 200 {status: ready} when the database answers', async () => {
    const res = await fetch(`${get().url}/health/ready`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ready' });
  });
});

describe('readiness when the database is gone', () => {
  it('GET /health/ready answers 503 while /health stays 200', async () => {
    const dir = tempDir();
    const storage = createSqliteAdapter({ filename: join(dir, 'gatehouse.db') });
    const gatehouse = await createGatehouse({
      storage,
      baseUrl: 'http://127.0.0.1',
      secret: 'ops-test-secret',
      logger: createJsonLogger('silent'),
    });
    const server = createServer(gatehouse.handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      assert.equal((await fetch(`${url}/health/ready`)).status, 200);
      await storage.close();
      const res = await fetch(`${url}/health/ready`);
      assert.equal(res.status, 503);
      assert.equal(((await res.json()) as { status: string }).status, 'database unreachable');
      assert.equal((await fetch(`${url}/health`)).status, 200);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('structured logs (pino)', () => {
  it('writes one JSON line per request with the request id sent in x-stack-request-id', async () => {
    const lines: string[] = [];
    const dir = tempDir();
    const gatehouse = await createGatehouse({
      dataDir: dir,
      baseUrl: 'http://127.0.0.1',
      secret: 'ops-test-secret',
      logger: createJsonLogger('info', (line) => lines.push(line)),
    });
    const server = createServer(gatehouse.handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1`);
      assert.equal(res.status, 200);
      const requestId = res.headers.get('x-stack-request-id');
      assert.ok(requestId);
      await res.text();
      // The line is written once the response has been sent, so it may trail the answer a little.
      const findEntry = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.request_id === requestId);
      for (let i = 0; i < 100 && !findEntry(); i++) await new Promise((r) => setTimeout(r, 10));
      const entry = findEntry();
      assert.ok(entry, `no log line for ${requestId}: ${lines.join('')}`);
      assert.equal(entry.level, 'info');
      assert.equal(entry.msg, 'request');
      assert.equal(entry.method, 'GET');
      assert.equal(entry.path, '/api/v1');
      assert.equal(entry.status, 200);
      assert.equal(typeof entry.ms, 'number');
      assert.ok(!Number.isNaN(Date.parse(entry.time as string)), 'time is ISO 8601');
      assert.ok(lines.every((l) => l.endsWith('\n')));
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gatehouse.close();
    }
  });

  it('keeps answering requests while nobody reads its stdout (log lines are dropped, not waited for)', async () => {
    const dir = tempDir();
    const proc = await spawnGatehouse([...CLI, '--port', '0', '--data-dir', dir], {
      env: { ...process.env, ...SEED_KEYS },
      readStdout: false,
    });
    try {
      // 2,000 request lines (~400 KB) are far beyond a pipe's 64 KB: a synchronous logger
      // froze after about 160 of them and every later request hung.
      const statuses: number[] = [];
      for (let batch = 0; batch < 100; batch++) {
        statuses.push(
          ...(await Promise.all(
            Array.from({ length: 20 }, async () => {
              const res = await fetch(`${proc.url}/api/v1`, { signal: AbortSignal.timeout(10_000) });
              await res.text();
              return res.status;
            }),
          )),
        );
      }
      assert.equal(statuses.length, 2000);
      assert.ok(
        statuses.every((s) => s === 200),
        `statuses: ${[...new Set(statuses)].join(', ')}`,
      );
      // Reading again drains what was kept: whole JSON lines only, none cut in half.
      proc.stdout();
      await new Promise((r) => setTimeout(r, 500));
      const lines = proc.stdout().split('\n').filter(Boolean);
      assert.ok(lines.length > 0);
      for (const line of lines) assert.equal(typeof (JSON.parse(line) as { msg: string }).msg, 'string');
    } finally {
      proc.child.kill('SIGKILL');
    }
  });

  it('honours the level: warn drops info lines, silent drops everything', () => {
    const lines: string[] = [];
    const warn = createJsonLogger('warn', (l) => lines.push(l));
    warn.info({ a: 1 }, 'dropped');
    warn.warn({ a: 2 }, 'kept');
    warn.error({ a: 3 }, 'kept too');
    assert.deepEqual(
      lines.map((l) => [JSON.parse(l).level, JSON.parse(l).a]),
      [
        ['warn', 2],
        ['error', 3],
      ],
    );
    const silent: string[] = [];
    createJsonLogger('silent', (l) => silent.push(l)).error({}, 'nothing');
    assert.deepEqual(silent, []);
  });
});

describe('graceful shutdown', () => {
  it('stop() lets an in-flight request finish, then refuses new connections (in process)', async () => {
    const dir = tempDir();
    const config = resolveServerConfig(['--port', '0', '--data-dir', dir], SEED_KEYS);
    const running = await startServer(config, { logLevel: 'silent' });
    let stopped = false;
    let answered = false;
    let stoppedAfterAnswer = false;
    let stopping: Promise<void> | undefined;
    const res = await slowRequest(
      running.url,
      '/api/v1/users',
      SERVER_HEADERS,
      JSON.stringify({ primary_email: 'slow@example.com', display_name: 'Slow request' }),
      400,
      () => {
        // Once the server has parsed the headers (a request whose bytes are still in the kernel
        // is not in flight yet).
        running.server.once('request', (_req, serverRes) => {
          serverRes.once('finish', () => {
            answered = true;
          });
          stopping = running.stop().then(() => {
            stopped = true;
            stoppedAfterAnswer = answered;
          });
        });
      },
    );
    assert.equal(res.status, 201, res.raw);
    assert.ok(stopping);
    await stopping;
    assert.equal(stoppedAfterAnswer, true, 'stop() waited for the in-flight request');
    assert.ok(stopped);
    await assert.rejects(fetch(`${running.url}/health`));
    assert.equal(countUsers(join(dir, 'gatehouse.db'), 'slow@example.com'), 1);
  });

  it('SIGTERM to the gatehouse process finishes the in-flight request and exits 0', async () => {
    const dir = tempDir();
    const proc = await spawnGatehouse([...CLI, '--port', '0', '--data-dir', dir], { env: { ...process.env, ...SEED_KEYS } });
    try {
      const res = await slowRequest(
        proc.url,
        '/api/v1/users',
        SERVER_HEADERS,
        JSON.stringify({ primary_email: 'sigterm@example.com' }),
        1500,
        () => {
          setTimeout(() => proc.child.kill('SIGTERM'), 500);
        },
      );
      assert.equal(res.status, 201, res.raw);
      const exit = await proc.exited;
      assert.deepEqual(exit, { code: 0, signal: null }, proc.stderr());
      assert.match(proc.stderr(), /Received SIGTERM/);
      assert.equal(countUsers(join(dir, 'gatehouse.db'), 'sigterm@example.com'), 1);
    } finally {
      proc.child.kill('SIGKILL');
    }
  });
});

describe('backup', () => {
  it('backupSqlite copies a live database into a consistent single file', async () => {
    const dir = tempDir();
    const running = await startServer(resolveServerConfig(['--port', '0', '--data-dir', dir], SEED_KEYS), { logLevel: 'silent' });
    try {
      for (const n of [1, 2, 3]) {
        const res = await fetch(`${running.url}/api/v1/users`, {
          method: 'POST',
          headers: SERVER_HEADERS,
          body: JSON.stringify({ primary_email: `b${n}@example.com` }),
        });
        assert.equal(res.status, 201);
      }
      const dest = join(dir, 'backups', 'copy.db');
      const result = await backupSqlite(join(dir, 'gatehouse.db'), dest);
      assert.ok(result.pages > 0);
      assert.equal(countUsers(dest), 3);
      assert.equal(existsSync(`${dest}.partial`), false);
      assert.equal(existsSync(`${dest}-wal`), false, 'the copy is one file');
      assert.equal(statSync(dest).mode & 0o777, 0o600, 'owner-only');
      const copy = new BetterSqlite3(dest, { readonly: true });
      try {
        assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
      } finally {
        copy.close();
      }
      // The server keeps working after the backup.
      const res = await fetch(`${running.url}/api/v1/users`, {
        method: 'POST',
        headers: SERVER_HEADERS,
        body: JSON.stringify({ primary_email: 'after@example.com' }),
      });
      assert.equal(res.status, 201);
    } finally {
      await running.stop();
    }
  });

  it('backupSqlite fails on a missing source and leaves no file', async () => {
    const dir = tempDir();
    await assert.rejects(backupSqlite(join(dir, 'missing.db'), join(dir, 'out.db')));
    assert.equal(existsSync(join(dir, 'out.db')), false);
    assert.equal(existsSync(join(dir, 'out.db.partial')), false);
  });

  it('resolveBackupConfig: source from --data-dir, --database-url or the environment; refuses bad input', () => {
    const dir = tempDir();
    const db = join(dir, 'gatehouse.db');
    new BetterSqlite3(db).close();
    assert.deepEqual(resolveBackupConfig([join(dir, 'a.db'), '--data-dir', dir], {}), {
      source: db,
      destination: join(dir, 'a.db'),
      help: false,
    });
    assert.equal(resolveBackupConfig([join(dir, 'a.db')], { GATEHOUSE_DATA_DIR: dir }).source, db);
    assert.equal(resolveBackupConfig([join(dir, 'a.db'), '--database-url', `sqlite:${db}`], {}).source, db);
    assert.equal(resolveBackupConfig(['--help'], {}).help, true);
    assert.throws(() => resolveBackupConfig([], {}), ConfigError);
    assert.throws(() => resolveBackupConfig(['a.db', 'b.db', '--data-dir', dir], {}), ConfigError);
    assert.throws(() => resolveBackupConfig([db, '--data-dir', dir], {}), /already exists/);
    assert.throws(() => resolveBackupConfig([join(dir, 'a.db'), '--data-dir', join(dir, 'nowhere')], {}), /No database/);
    assert.throws(() => resolveBackupConfig([join(dir, 'a.db'), '--database-url', 'postgres://u@h/db'], {}), /pg_dump/);
    assert.throws(() => resolveBackupConfig([join(dir, 'a.db'), '--database-url', 'mysql://x'], {}), /Unsupported/);
    assert.throws(() => resolveBackupConfig([join(dir, 'a.db'), '--bogus'], {}), ConfigError);
  });

  it('`gatehouse backup <file>` works from the command line and refuses to overwrite', async () => {
    const dir = tempDir();
    const proc = await spawnGatehouse([...CLI, '--port', '0', '--data-dir', dir], { env: { ...process.env, ...SEED_KEYS } });
    try {
      const res = await fetch(`${proc.url}/api/v1/users`, {
        method: 'POST',
        headers: SERVER_HEADERS,
        body: JSON.stringify({ primary_email: 'cli-backup@example.com' }),
      });
      assert.equal(res.status, 201);
      const { spawnSync } = await import('node:child_process');
      const dest = join(dir, 'cli-backup.db');
      const first = spawnSync(CLI[0]!, [...CLI.slice(1), 'backup', dest, '--data-dir', dir], { encoding: 'utf8' });
      assert.equal(first.status, 0, first.stderr);
      assert.match(first.stderr, /Backed up/);
      assert.equal(countUsers(dest, 'cli-backup@example.com'), 1);
      const again = spawnSync(CLI[0]!, [...CLI.slice(1), 'backup', dest, '--data-dir', dir], { encoding: 'utf8' });
      assert.equal(again.status, 1);
      assert.match(again.stderr, /already exists/);
    } finally {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
  });
});
