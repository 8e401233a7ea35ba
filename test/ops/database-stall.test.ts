import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import { createTestDatabase, testDialects, type TestDatabase } from '../helpers/dialects.ts';
import { SEED_KEYS, SERVER_HEADERS } from './process.ts';
import { spawnBehindProxy, type ProxiedGatehouse } from './postgres-behind-proxy.ts';
import { serveSqliteInProcess, type InProcessServer } from './sqlite-server.ts';

/**
 * Fail fast when the database stalls. With the default timeouts (a 10 s
 * statement timeout), a stalled PostgreSQL used to hold every request for 10 s and
 * `/health/ready` for 11 s. The health monitor (core/storage/health-monitor.ts) must mark it down
 * so that requests and readiness answer 503 within 2 s of the stall, service returns within 1 s
 * of the database answering again, and no write answered 2xx is missing afterwards. The same
 * for a SQLite file whose write lock another connection holds. Bounds are the issue's own,
 * measured with the monotonic clock (performance.now()).
 */

/** The bounds, in ms. */
const STALL_BOUND_MS = 2000;
const RECOVERY_BOUND_MS = 1000;

interface Outcome {
  what: 'write' | 'readiness';
  started: number;
  ended: number;
  status: number;
  code: string | null;
  userId?: string;
  detail: string;
}

/** Sends requests and keeps what each answered and when (performance.now() times). */
function recorder(baseUrl: string) {
  const outcomes: Outcome[] = [];
  let n = 0;
  const send = async (what: Outcome['what'], path: string, init: RequestInit = {}): Promise<Outcome> => {
    const started = performance.now();
    let outcome: Outcome;
    try {
      const res = await fetch(`${baseUrl}${path}`, { ...init, headers: SERVER_HEADERS });
      const text = await res.text();
      const userId = res.status === 201 ? (JSON.parse(text) as { id: string }).id : undefined;
      outcome = {
        what,
        started,
        ended: performance.now(),
        status: res.status,
        code: res.headers.get('x-stack-known-error'),
        userId,
        detail: text.slice(0, 200),
      };
    } catch (error) {
      outcome = { what, started, ended: performance.now(), status: 0, code: null, detail: String((error as Error).cause ?? error) };
    }
    outcomes.push(outcome);
    return outcome;
  };
  return {
    outcomes,
    write: () =>
      send('write', '/api/v1/users', {
        method: 'POST',
        body: JSON.stringify({ primary_email: `stall-${process.pid}-${n++}@example.com` }),
      }),
    readiness: () => send('readiness', '/health/ready'),
  };
}

/**
 * The checks shared by both dialects, given when the fault began and ended: every request in
 * flight or sent during the fault ended within STALL_BOUND_MS of the fault or of its start,
 * with a 503 (DATABASE_UNAVAILABLE for API requests) once the fault was older than the bound;
 * no write or readiness check sent later than RECOVERY_BOUND_MS after the end was refused.
 */
function assertFailFastAndRecovery(outcomes: Outcome[], faultAt: number, endedAt: number): string {
  const show = (o: Outcome) =>
    `${o.what} sent ${Math.round(o.started - faultAt)} ms after the fault: ${o.status} ${o.code ?? ''} after ${Math.round(o.ended - o.started)} ms ${o.detail}`;
  const during = outcomes.filter((o) => o.ended > faultAt && o.started < endedAt);
  for (const o of during) {
    const from = Math.max(o.started, faultAt);
    // A request sent in the fault's last 2 s may be answered by the database once it is back.
    if (from + STALL_BOUND_MS <= endedAt)
      assert.ok(o.ended - from <= STALL_BOUND_MS, `not answered within ${STALL_BOUND_MS} ms of the fault: ${show(o)}`);
    if (o.started > faultAt + STALL_BOUND_MS && o.ended <= endedAt) {
      assert.equal(o.status, 503, show(o));
      if (o.what === 'write') assert.equal(o.code, 'DATABASE_UNAVAILABLE', show(o));
    }
    assert.ok([200, 201, 503].includes(o.status), show(o));
  }
  assert.ok(
    during.filter((o) => o.what === 'write').length >= 3 && during.filter((o) => o.what === 'readiness').length >= 3,
    `too little traffic during the fault: ${during.length}`,
  );
  // Recovered within the bound: nothing sent later than that after the fault ended is refused.
  const timeline = () =>
    outcomes
      .filter((o) => o.ended >= endedAt)
      .map((o) => `${o.what} ${Math.round(o.started - endedAt)}→${Math.round(o.ended - endedAt)} ms: ${o.status} ${o.code ?? ''}`)
      .join('\n');
  for (const what of ['write', 'readiness'] as const) {
    const later = outcomes.filter((o) => o.what === what && o.started >= endedAt + RECOVERY_BOUND_MS);
    assert.ok(later.length > 0, `no ${what} sent ${RECOVERY_BOUND_MS} ms after the fault ended`);
    const refused = later.find((o) => o.status !== 200 && o.status !== 201);
    assert.equal(refused, undefined, `${what} refused more than ${RECOVERY_BOUND_MS} ms after the fault ended:\n${timeline()}`);
  }
  // Figures for the log (node:test diagnostics): slowest answer in the fault, first success after.
  const slowest = Math.max(...during.filter((o) => o.ended <= endedAt).map((o) => o.ended - Math.max(o.started, faultAt)));
  const firstOk = (what: Outcome['what']) =>
    Math.round(outcomes.find((o) => o.what === what && o.started >= endedAt && o.status < 300)!.ended - endedAt);
  return `slowest answer during the fault ${Math.round(slowest)} ms; first success after it: readiness ${firstOk('readiness')} ms, write ${firstOk('write')} ms`;
}

/**
 * Runs writers and readiness checks until `stop()`, as clients and a probe would: each sends its
 * next request 20 ms after the last answer (requests always in flight, at a rate that does not
 * depend on the machine's speed).
 */
function drive(client: ReturnType<typeof recorder>, writers: number) {
  let running = true;
  const loop = async (send: () => Promise<unknown>) => {
    while (running) {
      await send();
      await sleep(20);
    }
  };
  const loops = [...Array.from({ length: writers }, () => loop(() => client.write())), loop(() => client.readiness())];
  return async () => {
    running = false;
    await Promise.all(loops);
  };
}

/** Waits until `client` sees a successful write sent at or after `from`, or 20 s pass. */
async function untilWriteSucceeds(client: ReturnType<typeof recorder>, from: number): Promise<void> {
  const deadline = performance.now() + 20_000;
  while (performance.now() < deadline && !client.outcomes.some((o) => o.what === 'write' && o.started >= from && o.status === 201))
    await sleep(20);
}

/**
 * Waits (up to 20 s) until a write and a readiness check sent at or after `from` have both been
 * answered, whatever they answered: the recovery check then has traffic of each kind to judge (a
 * readiness check in flight at `from` on a busy machine would otherwise leave none).
 */
async function untilBothAnsweredAfter(client: ReturnType<typeof recorder>, from: number): Promise<void> {
  const deadline = performance.now() + 20_000;
  const answered = (what: Outcome['what']) => client.outcomes.some((o) => o.what === what && o.started >= from);
  while (performance.now() < deadline && !(answered('write') && answered('readiness'))) await sleep(20);
}

/** Every write answered 201 must be stored: its user id is in the database. */
async function assertAcknowledgedWritesStored(outcomes: Outcome[], storedIds: Set<string>): Promise<void> {
  const acknowledged = outcomes.filter((o) => o.status === 201).map((o) => o.userId!);
  assert.ok(acknowledged.length > 0);
  const missing = acknowledged.filter((id) => !storedIds.has(id));
  assert.deepEqual(missing, [], `${missing.length} of ${acknowledged.length} acknowledged writes are missing`);
}

if (testDialects().includes('postgres')) {
  describe('PostgreSQL stall with the default timeouts (loopback TCP proxy, real gatehouse processes: --workers 2)', () => {
    let started: ProxiedGatehouse;

    before(async () => {
      // The default timeouts: what the monitor must beat is the 10 s statement timeout.
      const env = { ...process.env, ...SEED_KEYS };
      for (const name of Object.keys(env) as Array<keyof typeof env>) if (name.startsWith('GATEHOUSE_DATABASE_')) delete env[name];
      // Two server processes (what `--workers auto` runs on two cores), each with its own monitor.
      started = await spawnBehindProxy(env, undefined, ['--workers', '2']);
    });
    after(() => started?.close());

    it('answers 503 within 2 s of the stall (readiness too), recovers within 1 s of the resume, and loses no acknowledged write', async (t) => {
      const { proc, proxy, database } = started;
      const client = recorder(proc.url);
      const stop = drive(client, 4);
      await untilWriteSucceeds(client, 0);
      await sleep(1500);
      proxy.pause();
      const pausedAt = performance.now();
      await sleep(STALL_BOUND_MS + 1500);
      proxy.resume();
      const resumedAt = performance.now();
      await untilWriteSucceeds(client, resumedAt + RECOVERY_BOUND_MS);
      await untilBothAnsweredAfter(client, resumedAt + RECOVERY_BOUND_MS);
      await stop();

      assert.ok(
        client.outcomes.filter((o) => o.ended < pausedAt).every((o) => o.status === 200 || o.status === 201),
        'errors before the stall',
      );
      t.diagnostic(assertFailFastAndRecovery(client.outcomes, pausedAt, resumedAt));
      const storage = database.open();
      try {
        const rows = await storage.db.selectFrom('users').select('id').execute();
        await assertAcknowledgedWritesStored(client.outcomes, new Set(rows.map((r) => r.id)));
      } finally {
        await storage.close();
      }
      assert.doesNotMatch(proc.stderr(), /Unhandled 'error' event|uncaught/i);
    });
  });
}

describe('SQLite write lock held by another connection (default busy timeout)', () => {
  let database: TestDatabase;
  let filename: string;
  let served: InProcessServer;
  let url: string;

  before(async () => {
    database = await createTestDatabase('sqlite');
    filename = database.databaseUrl.slice('sqlite:'.length);
    served = await serveSqliteInProcess({ filename });
    url = served.url;
  });
  after(async () => {
    await served.close();
    await database.drop();
  });

  it('answers writes and readiness 503 within 2 s of the lock, recovers within 1 s of its release, and loses no acknowledged write', async (t) => {
    const client = recorder(url);
    const stop = drive(client, 2);
    await untilWriteSucceeds(client, 0);
    await sleep(500);
    const other = new BetterSqlite3(filename);
    try {
      other.exec('begin exclusive');
      const lockedAt = performance.now();
      await sleep(STALL_BOUND_MS + 1500);
      other.exec('commit');
      const releasedAt = performance.now();
      await untilWriteSucceeds(client, releasedAt + RECOVERY_BOUND_MS);
      await untilBothAnsweredAfter(client, releasedAt + RECOVERY_BOUND_MS);
      await stop();
      t.diagnostic(assertFailFastAndRecovery(client.outcomes, lockedAt, releasedAt));
      const ids = new Set((other.prepare('select id from users').all() as Array<{ id: string }>).map((r) => r.id));
      await assertAcknowledgedWritesStored(client.outcomes, ids);
    } finally {
      if (other.inTransaction) other.exec('rollback');
      other.close();
    }
  });
});
