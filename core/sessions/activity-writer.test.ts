import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, createProject, createProjectKeys, type Caller } from '../../test/helpers/api.ts';
import { createSqliteAdapter } from '../../adapters/sqlite/index.ts';
import type { TestServer } from '../../test/helpers/server.ts';
import { createSessionActivityWriter, planActivityWrites, type SessionTouch } from './activity-writer.ts';
import { utcDay } from './queries.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A user of a fresh project with `count` sessions (refresh tokens), and a client caller with the
 * project's publishable key (it outlives clock moves, unlike the owner's admin access token).
 */
async function userWithSessions(server: TestServer, count: number) {
  const p = await createProject(server);
  const keys = await createProjectKeys(server, p.admin);
  const client: Caller = { projectId: p.projectId, accessType: 'client', publishableClientKey: keys.publishableClientKey };
  const user = await api(server, 'POST', '/users', p.server, { primary_email: `u${Math.random().toString(36).slice(2)}@example.com` });
  assert.equal(user.status, 201, user.text);
  const refreshTokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const session = await api(server, 'POST', '/auth/sessions', p.server, { user_id: user.body.id });
    assert.equal(session.status, 200, session.text);
    refreshTokens.push(session.body.refresh_token as string);
  }
  return { p, client, userId: user.body.id as string, refreshTokens };
}

/** Counts the transactions begun on the runtime's database while `fn` runs. */
async function countTransactions<T>(server: TestServer, fn: () => Promise<T>): Promise<{ result: T; transactions: number }> {
  const db = server.gatehouse.core.runtime.db as unknown as { transaction: (...args: unknown[]) => unknown };
  const original = db.transaction;
  let transactions = 0;
  db.transaction = function (this: unknown, ...args: unknown[]) { transactions++; return original.apply(this, args); };
  try {
    return { result: await fn(), transactions };
  } finally {
    db.transaction = original;
  }
}

describeWithServer('session activity group commit', (get) => {
  it('commits 50 concurrent refreshes in far fewer transactions than 50, writing every session and the user', async () => {
    const server = get();
    const { client, userId, refreshTokens } = await userWithSessions(server, 50);
    server.clock.advance(60_000);
    // In-process, so all 50 are in flight together whatever the load of the machine.
    const core = server.gatehouse.core;
    const { result: answers, transactions } = await countTransactions(server, () => Promise.all(refreshTokens.map((refreshToken) =>
      core.invoke<{ access_token: string }>('sessions.refreshCurrent', { ...client, refreshToken }))));
    for (const answer of answers) assert.equal(typeof answer.access_token, 'string');
    assert.ok(transactions >= 1 && transactions <= 10, `50 refreshes committed in ${transactions} transactions`);
    const db = server.gatehouse.core.runtime.db;
    const sessions = await db.selectFrom('refresh_tokens').select('last_used_at').where('user_id', '=', userId).execute();
    assert.equal(sessions.length, 50);
    for (const s of sessions) assert.equal(Number(s.last_used_at), server.clock.now());
    const user = await db.selectFrom('users').select('last_active_at').where('id', '=', userId).executeTakeFirstOrThrow();
    assert.equal(Number(user.last_active_at), server.clock.now());
  });

  it('answers 50 concurrent refreshes over HTTP with 200 and writes every session', async () => {
    const server = get();
    const { client, userId, refreshTokens } = await userWithSessions(server, 50);
    server.clock.advance(30_000);
    const answers = await Promise.all(refreshTokens.map((refreshToken) => api(server, 'POST', '/auth/sessions/current/refresh', { ...client, refreshToken })));
    for (const res of answers) assert.equal(res.status, 200, res.text);
    const db = server.gatehouse.core.runtime.db;
    const sessions = await db.selectFrom('refresh_tokens').select('last_used_at').where('user_id', '=', userId).execute();
    assert.deepEqual(sessions.map((s) => Number(s.last_used_at)), refreshTokens.map(() => server.clock.now()));
  });

  it('answers a refresh only after its writes are committed: another connection sees them', async () => {
    const server = get();
    const { client, userId, refreshTokens } = await userWithSessions(server, 1);
    server.clock.advance(90_000);
    const other = server.database.open();
    try {
      const res = await api(server, 'POST', '/auth/sessions/current/refresh', { ...client, refreshToken: refreshTokens[0] });
      assert.equal(res.status, 200, res.text);
      const session = await other.db.selectFrom('refresh_tokens').select('last_used_at').where('user_id', '=', userId).executeTakeFirstOrThrow();
      assert.equal(Number(session.last_used_at), server.clock.now());
      const user = await other.db.selectFrom('users').select('last_active_at').where('id', '=', userId).executeTakeFirstOrThrow();
      assert.equal(Number(user.last_active_at), server.clock.now());
    } finally {
      await other.close();
    }
  });

  it('records one active day per user for concurrent refreshes on a new UTC day, and none on the same day', async () => {
    const server = get();
    const { client, userId, refreshTokens } = await userWithSessions(server, 5);
    const db = server.gatehouse.core.runtime.db;
    const days = async () => (await db.selectFrom('user_active_days').select('day').where('user_id', '=', userId).orderBy('day').execute()).map((r) => r.day);
    const refreshAll = async () => {
      const answers = await Promise.all(refreshTokens.map((refreshToken) => api(server, 'POST', '/auth/sessions/current/refresh', { ...client, refreshToken })));
      for (const res of answers) assert.equal(res.status, 200, res.text);
    };
    const firstDay = utcDay(server.clock.now());
    assert.deepEqual(await days(), [firstDay]);
    server.clock.advance(DAY_MS);
    await refreshAll();
    const secondDay = utcDay(server.clock.now());
    assert.deepEqual(await days(), [firstDay, secondDay]);
    server.clock.advance(1000);
    if (utcDay(server.clock.now()) === secondDay) {
      await refreshAll();
      assert.deepEqual(await days(), [firstDay, secondDay]);
    }
  });

});

describe('session activity writer failures', () => {
  it('rejects every touch of a batch whose transaction fails with that error', async () => {
    // A real database without the tables: the batch's first update fails.
    const empty = createSqliteAdapter({ filename: ':memory:' });
    try {
      const writer = createSessionActivityWriter(empty.db);
      const touch = (i: number): SessionTouch => ({ projectId: 'p', sessionId: `s${i}`, userId: 'u', now: 1000, previousActiveAt: null });
      const results = await Promise.allSettled([0, 1, 2].map((i) => writer.record(touch(i))));
      const errors = results.map((r) => (r.status === 'rejected' ? r.reason as unknown : null));
      assert.ok(errors[0] instanceof Error && /no such table/.test(errors[0].message), String(errors[0]));
      for (const error of errors) assert.equal(error, errors[0], 'every touch gets the batch error');
      await writer.drain();
    } finally {
      await empty.close();
    }
  });
});

describe('planActivityWrites', () => {
  const base = { projectId: 'p1', userId: 'u1', previousActiveAt: null };
  it('writes each session and user once at the latest time of the batch, sorted by id', () => {
    const writes = planActivityWrites([
      { ...base, sessionId: 's2', now: 3000 },
      { ...base, sessionId: 's1', now: 5000 },
      { ...base, sessionId: 's2', now: 4000 },
      { ...base, sessionId: 's1', now: 2000 },
      { ...base, userId: 'u0', sessionId: 's0', now: 1000 },
    ]);
    assert.deepEqual(writes.sessions, [{ id: 's0', usedAt: 1000 }, { id: 's1', usedAt: 5000 }, { id: 's2', usedAt: 4000 }]);
    assert.deepEqual(writes.users, [{ projectId: 'p1', id: 'u0', activeAt: 1000 }, { projectId: 'p1', id: 'u1', activeAt: 5000 }]);
  });

  it('adds an active day only for a touch whose previous activity was on another UTC day, once per user and day', () => {
    const day = Date.UTC(2025, 0, 10, 12);
    const writes = planActivityWrites([
      { ...base, sessionId: 's1', now: day, previousActiveAt: day - 60_000 },
      { ...base, userId: 'u2', sessionId: 's2', now: day, previousActiveAt: day - DAY_MS },
      { ...base, userId: 'u2', sessionId: 's3', now: day + 1000, previousActiveAt: day - DAY_MS },
      { ...base, userId: 'u3', sessionId: 's4', now: day, previousActiveAt: null },
    ]);
    assert.deepEqual(writes.activeDays, [
      { project_id: 'p1', day: '2025-01-10', user_id: 'u2' },
      { project_id: 'p1', day: '2025-01-10', user_id: 'u3' },
    ]);
  });
});
