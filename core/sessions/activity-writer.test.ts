import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { createCoreProjectKeys } from '../../test/helpers/core-fixtures-b.ts';
import { createSqliteAdapter } from '../../adapters/sqlite/index.ts';
import type { Credentials } from '../index.ts';
import { createSessionActivityWriter, planActivityWrites, type SessionTouch } from './activity-writer.ts';
import { utcDay } from './queries.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/*
 * Session activity, in-process (test/helpers/core-client.ts). 50 concurrent refreshes over HTTP
 * (all 200, every session written) are in test/routes/wire-answers.test.ts.
 */

/**
 * A user of a fresh project with `count` sessions (refresh tokens), and a client caller with the
 * project's publishable key (it outlives clock moves, unlike the owner's admin access token).
 */
async function userWithSessions(t: TestCore, count: number) {
  const p = await createCoreProject(t);
  const keys = await createCoreProjectKeys(t, p.admin);
  const client: Credentials = { projectId: p.projectId, accessType: 'client', publishableClientKey: keys.publishableClientKey };
  const user = await t.call<{ id: string }>('users.create', p.server, {
    body: { primary_email: `u${Math.random().toString(36).slice(2)}@example.com` },
  });
  const refreshTokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const session = await t.call<{ refresh_token: string }>('sessions.create', p.server, { body: { user_id: user.id } });
    refreshTokens.push(session.refresh_token);
  }
  return { p, client, userId: user.id, refreshTokens };
}

/** Counts the transactions begun on the runtime's database while `fn` runs. */
async function countTransactions<T>(t: TestCore, fn: () => Promise<T>): Promise<{ result: T; transactions: number }> {
  const db = t.core.runtime.db as unknown as { transaction: (...args: unknown[]) => unknown };
  const original = db.transaction;
  let transactions = 0;
  db.transaction = function (this: unknown, ...args: unknown[]) {
    transactions++;
    return original.apply(this, args);
  };
  try {
    return { result: await fn(), transactions };
  } finally {
    db.transaction = original;
  }
}

describeWithCore('session activity group commit', (get) => {
  it('commits 50 concurrent refreshes in far fewer transactions than 50, writing every session and the user', async () => {
    const t = get();
    const { client, userId, refreshTokens } = await userWithSessions(t, 50);
    t.clock.advance(60_000);
    // In-process, so all 50 are in flight together whatever the load of the machine.
    const core = t.core;
    const { result: answers, transactions } = await countTransactions(t, () =>
      Promise.all(
        refreshTokens.map((refreshToken) => core.invoke<{ access_token: string }>('sessions.refreshCurrent', { ...client, refreshToken })),
      ),
    );
    for (const answer of answers) assert.equal(typeof answer.access_token, 'string');
    assert.ok(transactions >= 1 && transactions <= 10, `50 refreshes committed in ${transactions} transactions`);
    const db = t.core.runtime.db;
    const sessions = await db.selectFrom('refresh_tokens').select('last_used_at').where('user_id', '=', userId).execute();
    assert.equal(sessions.length, 50);
    for (const s of sessions) assert.equal(Number(s.last_used_at), t.clock.now());
    const user = await db.selectFrom('users').select('last_active_at').where('id', '=', userId).executeTakeFirstOrThrow();
    assert.equal(Number(user.last_active_at), t.clock.now());
  });

  it('answers a refresh only after its writes are committed: another connection sees them', async () => {
    const t = get();
    const { client, userId, refreshTokens } = await userWithSessions(t, 1);
    t.clock.advance(90_000);
    const other = t.database.open();
    try {
      await t.call('sessions.refreshCurrent', { ...client, refreshToken: refreshTokens[0] });
      const session = await other.db
        .selectFrom('refresh_tokens')
        .select('last_used_at')
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(session.last_used_at), t.clock.now());
      const user = await other.db.selectFrom('users').select('last_active_at').where('id', '=', userId).executeTakeFirstOrThrow();
      assert.equal(Number(user.last_active_at), t.clock.now());
    } finally {
      await other.close();
    }
  });

  it('records one active day per user for concurrent refreshes on a new UTC day, and none on the same day', async () => {
    const t = get();
    const { client, userId, refreshTokens } = await userWithSessions(t, 5);
    const db = t.core.runtime.db;
    const days = async () =>
      (await db.selectFrom('user_active_days').select('day').where('user_id', '=', userId).orderBy('day').execute()).map((r) => r.day);
    const refreshAll = async () => {
      const answers = await Promise.all(
        refreshTokens.map((refreshToken) => t.call<{ access_token: string }>('sessions.refreshCurrent', { ...client, refreshToken })),
      );
      for (const answer of answers) assert.equal(typeof answer.access_token, 'string');
    };
    const firstDay = utcDay(t.clock.now());
    assert.deepEqual(await days(), [firstDay]);
    t.clock.advance(DAY_MS);
    await refreshAll();
    const secondDay = utcDay(t.clock.now());
    assert.deepEqual(await days(), [firstDay, secondDay]);
    t.clock.advance(1000);
    if (utcDay(t.clock.now()) === secondDay) {
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
      const errors = results.map((r) => (r.status === 'rejected' ? (r.reason as unknown) : null));
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
    assert.deepEqual(writes.sessions, [
      { id: 's0', usedAt: 1000 },
      { id: 's1', usedAt: 5000 },
      { id: 's2', usedAt: 4000 },
    ]);
    assert.deepEqual(writes.users, [
      { projectId: 'p1', id: 'u0', activeAt: 1000 },
      { projectId: 'p1', id: 'u1', activeAt: 5000 },
    ]);
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
