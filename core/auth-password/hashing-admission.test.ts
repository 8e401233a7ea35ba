import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { createCoreProject, describeWithCore } from '../../test/helpers/core-client.ts';
import { KnownError, RateLimitError } from '../errors/index.ts';
import { sha256Hex } from '../lib/hash.ts';
import { configurePasswordHashing, passwordHashingStats } from './hashing.ts';

/**
 * Password hashing runs through a bounded queue; past its limit a
 * request answers a retryable 429 in upstream's shape instead of stalling the process. How fast
 * reads stay is measured by the benchmark (scripts/bench/compare.mjs, mixed scenario), not here.
 * In-process (test/helpers/core-client.ts); how a RateLimitError goes on the wire (429, JSON
 * {message}, Retry-After, no known-error header) is server-bin/api/render.test.ts's.
 */

/** Settles `promise` to its value or its error, for bursts whose members may be refused. */
type Settled<T> = { ok: T; error?: undefined } | { ok?: undefined; error: unknown };
const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (ok) => ({ ok }),
    (error: unknown) => ({ error }),
  );
const isBusy = (r: Settled<unknown>) => r.error instanceof RateLimitError && /busy with password hashing/.test(r.error.message);
const PASSWORD = 'correct horse battery';

// The core runs in this process, so the process-wide limits apply to it; the process's own are
// put back after this file (other test files may run in the same process).
const { concurrency, maxQueued } = passwordHashingStats();
configurePasswordHashing({ concurrency: 1, maxQueued: 2 });
after(() => configurePasswordHashing({ concurrency, maxQueued }));

// The real argon2id cost: the queue fills only when hashes take their real time.
describeWithCore(
  'password hashing admission',
  (get) => {
    it('refuses sign-ups beyond the queue with a retryable 429, creates exactly the admitted users, and keeps answering reads', async () => {
      const t = get();
      const { server: serverCaller, client } = await createCoreProject(t);
      const session = await t.call<{ access_token: string }>('authPassword.signUp', serverCaller, {
        body: { email: 'reader@example.com', password: PASSWORD },
      });
      const refusedBefore = passwordHashingStats().refused;
      const burst = Array.from({ length: 12 }, (_, i) =>
        settle(t.core.invoke('authPassword.signUp', serverCaller, { body: { email: `burst${i}@example.com`, password: PASSWORD } })),
      );
      const reads = Array.from({ length: 5 }, () => t.call('users.getCurrent', { ...client, accessToken: session.access_token }));
      const [signUps] = await Promise.all([Promise.all(burst), Promise.all(reads)]);
      const refused = signUps.filter(isBusy);
      const admitted = signUps.filter((r) => 'ok' in r);
      assert.equal(refused.length + admitted.length, 12, signUps.map((r) => ('error' in r ? String(r.error) : 'ok')).join('\n'));
      assert.ok(refused.length > 0, 'some sign-ups are refused');
      assert.ok(admitted.length >= 3, 'the running and queued sign-ups complete');
      for (const r of refused) {
        // Upstream's rate-limit shape: a plain status error (no known-error code) with whole seconds to wait.
        const error = (r as { error: RateLimitError }).error;
        assert.ok(!(error instanceof KnownError));
        assert.equal(error.kind, 'too-many-requests');
        assert.ok(Number.isInteger(error.retryAfterSeconds) && error.retryAfterSeconds! >= 1, String(error.retryAfterSeconds));
      }
      assert.equal(passwordHashingStats().refused - refusedBefore, refused.length);
      // Exactly the admitted sign-ups created users.
      const list = await t.call<{ items: Array<{ primary_email: string }> }>('users.list', serverCaller, { query: { limit: '100' } });
      const burstEmails = list.items.map((u) => u.primary_email).filter((e) => e.startsWith('burst'));
      assert.equal(burstEmails.length, admitted.length);
    });

    it('refuses a sign-in on a full queue before counting it as a failed attempt', async () => {
      const t = get();
      const { server: serverCaller } = await createCoreProject(t);
      await t.call('authPassword.signUp', serverCaller, { body: { email: 'signin@example.com', password: PASSWORD } });
      const burst = await Promise.all(
        Array.from({ length: 12 }, () =>
          settle(
            t.core.invoke('authPassword.signIn', serverCaller, { body: { email: 'signin@example.com', password: 'wrong password!' } }),
          ),
        ),
      );
      const refused = burst.filter(isBusy);
      assert.ok(refused.length > 0, burst.map((r) => ('error' in r ? String(r.error) : 'ok')).join('\n'));
      // The failure counter holds exactly the attempts that were verified (EMAIL_PASSWORD_MISMATCH).
      const mismatches = burst.filter(
        (r) => 'error' in r && r.error instanceof KnownError && r.error.code === 'EMAIL_PASSWORD_MISMATCH',
      ).length;
      assert.equal(mismatches + refused.length, 12, 'every attempt was either verified or refused');
      const { projectId } = serverCaller as { projectId: string };
      const key = sha256Hex(`${projectId}\u0000password_failures\u0000signin@example.com`);
      const row = await t.core.runtime.db.selectFrom('throttle_buckets').select('tokens').where('key', '=', key).executeTakeFirstOrThrow();
      assert.equal(Number(row.tokens), mismatches);
    });
  },
  { testPasswordHashing: false },
);
