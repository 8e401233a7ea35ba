import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, createProject } from '../../test/helpers/api.ts';
import { sha256Hex } from '../lib/hash.ts';
import { configurePasswordHashing, passwordHashingStats } from './hashing.ts';

/**
 * Password hashing runs through a bounded queue; past its limit a
 * request answers a retryable 429 in upstream's shape instead of stalling the process. How fast
 * reads stay is measured by the benchmark (scripts/bench/compare.mjs, mixed scenario), not here.
 */
const PASSWORD = 'correct horse battery';

// The server runs in this process, so the process-wide limits apply to it.
configurePasswordHashing({ concurrency: 1, maxQueued: 2 });
after(() => configurePasswordHashing({ concurrency: 1, maxQueued: 64 }));

describeWithServer('password hashing admission (issue 19)', (get) => {
  it('refuses sign-ups beyond the queue with 429 and Retry-After, creates exactly the admitted users, and keeps answering reads', async () => {
    const server = get();
    const { server: serverCaller, client } = await createProject(server);
    const session = await api(server, 'POST', '/auth/password/sign-up', serverCaller, { email: 'reader@example.com', password: PASSWORD });
    assert.equal(session.status, 200, session.text);
    const refusedBefore = passwordHashingStats().refused;
    const burst = Array.from({ length: 12 }, (_, i) =>
      api(server, 'POST', '/auth/password/sign-up', serverCaller, { email: `burst${i}@example.com`, password: PASSWORD }),
    );
    const reads = Array.from({ length: 5 }, () => api(server, 'GET', '/users/me', { ...client, accessToken: session.body.access_token }));
    const [signUps, readResults] = await Promise.all([Promise.all(burst), Promise.all(reads)]);
    for (const read of readResults) assert.equal(read.status, 200, read.text);
    const refused = signUps.filter((res) => res.status === 429);
    const admitted = signUps.filter((res) => res.status === 200);
    assert.equal(refused.length + admitted.length, 12, signUps.map((r) => `${r.status} ${r.text}`).join('\n'));
    assert.ok(refused.length > 0, 'some sign-ups are refused');
    assert.ok(admitted.length >= 3, 'the running and queued sign-ups complete');
    for (const res of refused) {
      // Upstream's rate-limit shape: JSON {message}, no known-error header, Retry-After in seconds.
      assert.equal(res.headers.get('x-stack-known-error'), null);
      assert.match(res.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      assert.match(res.body.message, /busy with password hashing/);
    }
    assert.equal(passwordHashingStats().refused - refusedBefore, refused.length);
    // Exactly the admitted sign-ups created users.
    const list = await api(server, 'GET', '/users?limit=100', serverCaller);
    const burstEmails = (list.body.items as Array<{ primary_email: string }>)
      .map((u) => u.primary_email)
      .filter((e) => e.startsWith('burst'));
    assert.equal(burstEmails.length, admitted.length);
  });

  it('refuses a sign-in on a full queue before counting it as a failed attempt', async () => {
    const server = get();
    const { server: serverCaller } = await createProject(server);
    assert.equal(
      (await api(server, 'POST', '/auth/password/sign-up', serverCaller, { email: 'signin@example.com', password: PASSWORD })).status,
      200,
    );
    const burst = await Promise.all(
      Array.from({ length: 12 }, () =>
        api(server, 'POST', '/auth/password/sign-in', serverCaller, { email: 'signin@example.com', password: 'wrong password!' }),
      ),
    );
    const refused = burst.filter((res) => res.status === 429 && /busy with password hashing/.test(res.text));
    assert.ok(refused.length > 0, burst.map((r) => `${r.status} ${r.text}`).join('\n'));
    // The failure counter holds exactly the attempts that were verified (EMAIL_PASSWORD_MISMATCH).
    const mismatches = burst.filter((res) => res.body?.code === 'EMAIL_PASSWORD_MISMATCH').length;
    const { projectId } = serverCaller as { projectId: string };
    const key = sha256Hex(`${projectId}\u0000password_failures\u0000signin@example.com`);
    const row = await server.gatehouse.core.runtime.db
      .selectFrom('throttle_buckets')
      .select('tokens')
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    assert.equal(Number(row.tokens), mismatches);
  });
});
