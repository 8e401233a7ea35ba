import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createTestDatabase, testDialects } from '../helpers/dialects.ts';
import {
  CLIENT_HEADERS,
  SEED_KEYS,
  SERVER_HEADERS,
  sendOnNewConnection as send,
  spawnGatehouse,
  type GatehouseProcess,
} from './process.ts';
import { GATEHOUSE_CLI } from '../helpers/gatehouse-cli.ts';

/**
 * `--workers 2` runs two processes behind one port (node:cluster), on one
 * SQLite file or one PostgreSQL. Each request is sent on a new connection so the primary spreads
 * them; the `x-gatehouse-worker` header names the process that answered.
 */
const CLI = [...GATEHOUSE_CLI];
const ADMIN_HEADERS = {
  'x-stack-project-id': 'internal',
  'x-stack-access-type': 'admin',
  'x-stack-super-secret-admin-key': SEED_KEYS.GATEHOUSE_SEED_INTERNAL_SUPER_SECRET_ADMIN_KEY,
  'content-type': 'application/json',
};
/** Documented staleness bounds (docs/scaling.md): project and key lookups 1 s, revoked sessions 2 s. */
const KEY_BOUND_MS = 1000;
const REVOCATION_BOUND_MS = 2000;
/** Slack for request time on a loaded machine; the bound itself is the contract. */
const SLACK_MS = 3000;

const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** Sends until each of `workers` answered at least once; returns the answer of each (by worker id). */
async function onEveryWorker(
  count: number,
  attempt: () => Promise<{ worker: string; status: number; body: any }>,
): Promise<Map<string, { status: number; body: any }>> {
  const seen = new Map<string, { status: number; body: any }>();
  for (let i = 0; i < 50 && seen.size < count; i++) {
    const res = await attempt();
    seen.set(res.worker, res);
  }
  assert.equal(seen.size, count, `answers came from workers ${[...seen.keys()].join(', ')}`);
  return seen;
}

/** Sends until `ok` holds for an answer of each worker, 25 ms apart; returns the ms it took. */
async function untilEveryWorker(
  count: number,
  attempt: () => Promise<{ worker: string; status: number; body: any }>,
  ok: (res: { status: number }) => boolean,
  limitMs: number,
): Promise<number> {
  const started = Date.now();
  const done = new Set<string>();
  while (done.size < count) {
    assert.ok(Date.now() - started <= limitMs, `only workers ${[...done].join(', ')} changed within ${limitMs} ms`);
    const res = await attempt();
    if (ok(res)) done.add(res.worker);
    else await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - started;
}

function start(databaseUrl: string): Promise<GatehouseProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-workers-'));
  temps.push(dir);
  return spawnGatehouse([...CLI, '--port', '0', '--data-dir', dir, '--database-url', databaseUrl, '--workers', '2'], {
    env: { ...process.env, ...SEED_KEYS, GATEHOUSE_DASHBOARD_SIGNUP: 'open' },
    // Three processes start one after another; on a loaded shared machine that can take a minute.
    timeoutMs: 240_000,
  });
}

for (const dialect of testDialects()) {
  describe(`--workers 2 [${dialect}]`, () => {
    it('serves from both workers, propagates revocations within the bound, restarts a crashed worker, and drains all on SIGTERM', {
      timeout: 480_000,
    }, async () => {
      const db = await createTestDatabase(dialect);
      const proc = await start(db.databaseUrl);
      try {
        assert.match(proc.stderr(), /Listening:\s+\S+ \(2 worker processes\)/);
        const health = await onEveryWorker(2, () => send(proc.url, 'GET', '/health', {}));
        for (const [worker, res] of health) {
          assert.equal(res.status, 200);
          assert.equal(res.body.status, 'ok');
          assert.equal(String(res.body.worker), worker);
          assert.equal(res.body.workers, 2);
        }

        // A session revoked through one worker is refused by both within the bound.
        const up = await send(proc.url, 'POST', '/api/v1/auth/password/sign-up', CLIENT_HEADERS, {
          email: `workers-${dialect}@example.com`,
          password: 'correct horse battery staple',
        });
        assert.equal(up.status, 200, JSON.stringify(up.body));
        const me = () => send(proc.url, 'GET', '/api/v1/users/me', { ...CLIENT_HEADERS, 'x-stack-access-token': up.body.access_token });
        for (const res of (await onEveryWorker(2, me)).values()) assert.equal(res.status, 200);
        const out = await send(proc.url, 'DELETE', '/api/v1/auth/sessions/current', {
          ...CLIENT_HEADERS,
          'x-stack-access-token': up.body.access_token,
          'x-stack-refresh-token': up.body.refresh_token,
        });
        assert.equal(out.status, 200, JSON.stringify(out.body));
        await untilEveryWorker(2, me, (res) => res.status === 401, REVOCATION_BOUND_MS + SLACK_MS);
        // A key revoked through one worker is refused by both within the bound.
        const key = await send(proc.url, 'POST', '/api/v1/internal/api-keys', ADMIN_HEADERS, {
          description: 'workers test',
          expires_at_millis: null,
          has_publishable_client_key: false,
          has_secret_server_key: true,
          has_super_secret_admin_key: false,
        });
        assert.equal(key.status, 200, JSON.stringify(key.body));
        const withKey = () =>
          send(proc.url, 'GET', '/api/v1/users?limit=1', { ...SERVER_HEADERS, 'x-stack-secret-server-key': key.body.secret_server_key });
        for (const res of (await onEveryWorker(2, withKey)).values()) assert.equal(res.status, 200);
        const revoke = await send(proc.url, 'PATCH', `/api/v1/internal/api-keys/${key.body.id}`, ADMIN_HEADERS, { revoked: true });
        assert.equal(revoke.status, 200, JSON.stringify(revoke.body));
        await untilEveryWorker(2, withKey, (res) => res.status === 401, KEY_BOUND_MS + SLACK_MS);
        // A worker killed outright is replaced; the port keeps answering.
        const victim = [...health.values()][0]!.body.pid as number;
        process.kill(victim, 'SIGKILL');
        let replaced = false;
        // A replacement starts like any worker (seconds on a loaded machine).
        for (let i = 0; i < 300 && !replaced; i++) {
          const res = await send(proc.url, 'GET', '/health', {}).catch(() => null);
          if (res && res.status === 200 && res.body.pid !== victim && ![...health.values()].some((h) => h.body.pid === res.body.pid))
            replaced = true;
          else await new Promise((r) => setTimeout(r, 200));
        }
        assert.ok(replaced, `no replacement worker answered:\n${proc.stderr()}`);
        assert.match(proc.stderr(), new RegExp(`worker ${victim} exited \\(SIGKILL\\); starting another`));
        // SIGTERM: every worker drains and exits, then the primary, with code 0.
        const pids = (await onEveryWorker(2, () => send(proc.url, 'GET', '/health', {}))).values();
        proc.child.kill('SIGTERM');
        const exit = await proc.exited;
        assert.equal(exit.code, 0, proc.stderr());
        assert.match(proc.stderr(), /Stopped\./);
        for (const res of pids) assert.throws(() => process.kill(res.body.pid as number, 0), /ESRCH/);
      } finally {
        proc.child.kill('SIGKILL');
        await db.drop();
      }
    });
  });
}
