import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createTestDatabase, testDialects } from '../helpers/dialects.ts';
import { startWebhookReceiver } from '../helpers/webhook-receiver.ts';
import { startSmtpReceiver } from '../helpers/smtp.ts';
import { startBalancer } from '../../scripts/bench/balancer.mjs';
import { SEED_KEYS, SERVER_HEADERS, CLIENT_HEADERS, spawnGatehouse, type GatehouseProcess } from './process.ts';
import { assertExactlyArrives } from '../helpers/settle.ts';
import { GATEHOUSE_CLI } from '../helpers/gatehouse-cli.ts';

/**
 * Three Gatehouse processes start at the same moment
 * on one fresh PostgreSQL schema (all three run the migrations at once) behind a round-robin
 * loopback balancer, and take mixed load: sign-up, sign-in, refresh, reads, team changes and
 * emails. No request fails, every write lands exactly once, every webhook and email is
 * delivered exactly once, and a revocation made through one process is refused by all three
 * within the documented bound (docs/scaling.md "Caches across processes").
 */
const CLI = [...GATEHOUSE_CLI];
const ADMIN_HEADERS = {
  'x-stack-project-id': 'internal',
  'x-stack-access-type': 'admin',
  'x-stack-super-secret-admin-key': SEED_KEYS.GATEHOUSE_SEED_INTERNAL_SUPER_SECRET_ADMIN_KEY,
  'content-type': 'application/json',
};
/** Revoked sessions reach other processes within this many ms (core/sessions/revocations.ts default). */
const REVOCATION_BOUND_MS = 2000;
const USERS = 24;
const PASSWORD = 'correct horse battery staple';

const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function start(databaseUrl: string, smtpUrl: string): Promise<GatehouseProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-scale-'));
  temps.push(dir);
  return spawnGatehouse([...CLI, '--port', '0', '--data-dir', dir, '--database-url', databaseUrl, '--workers', '1'], {
    env: {
      ...process.env,
      ...SEED_KEYS,
      GATEHOUSE_ENVIRONMENT: 'development',
      GATEHOUSE_DASHBOARD_SIGNUP: 'open',
      GATEHOUSE_SMTP_URL: smtpUrl,
    },
    timeoutMs: 240_000,
  });
}

async function call(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: any; text: string }> {
  const res = await fetch(`${base}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* text body */
  }
  return { status: res.status, body: parsed, text };
}

/** Runs `tasks` with at most `limit` at once. */
async function pool<T>(items: T[], limit: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        await task(items[i]!, i);
      }
    }),
  );
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

for (const dialect of testDialects().filter((d) => d === 'postgres')) {
  describe(`three processes on one PostgreSQL behind a balancer (issue 19) [${dialect}]`, () => {
    it('start at once, take mixed load with no error and no lost or doubled write, deliver once, and all refuse a revoked session within the bound', {
      timeout: 600_000,
    }, async () => {
      const db = await createTestDatabase(dialect);
      const webhooks = await startWebhookReceiver();
      const smtp = await startSmtpReceiver();
      // All three run the migrations on the empty schema at the same moment.
      const started = await Promise.allSettled([0, 1, 2].map(() => start(db.databaseUrl, smtp.url)));
      const procs = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      if (procs.length < 3) {
        for (const proc of procs) proc.child.kill('SIGKILL');
        await Promise.all([webhooks.close(), smtp.stop(), db.drop()]);
        assert.fail(`not all processes started:\n${started.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok')).join('\n')}`);
      }
      const balancer = await startBalancer(procs.map((p) => p.url));
      const lb = balancer.url;
      try {
        // Before the webhook endpoint exists (so none of this is counted below): warm each process's
        // email render pool. A built-in email renders in the sandbox inside
        // its caller's transaction (core/emails/send-built-in.ts); the first render of a process
        // starts a worker thread, which on a loaded machine can outlast PostgreSQL's
        // idle-in-transaction timeout (503 DATABASE_UNAVAILABLE). Reported; not this test's subject.
        const warm = await call(lb, 'POST', '/auth/password/sign-up', SERVER_HEADERS, { email: 'warm@example.com', password: PASSWORD });
        assert.equal(warm.status, 200, warm.text);
        for (const proc of procs) {
          for (let attempt = 0; ; attempt++) {
            const res = await call(proc.url, 'POST', '/auth/password/send-reset-code', CLIENT_HEADERS, {
              email: 'warm@example.com',
              callback_url: 'http://localhost:3000/handler/password-reset',
            });
            if (res.status === 200) break;
            assert.ok(attempt < 5 && res.status === 503, `warming ${proc.url}: ${res.status} ${res.text}`);
          }
        }
        const endpoint = await call(lb, 'POST', '/internal/webhook-endpoints', ADMIN_HEADERS, {
          url: webhooks.url,
          event_types: ['user.created', 'team.created', 'team_membership.created'],
        });
        assert.equal(endpoint.status, 201, endpoint.text);
        const failures: string[] = [];
        const expect = (res: { status: number; text: string }, status: number, what: string) => {
          if (res.status !== status) failures.push(`${what}: ${res.status} ${res.text.slice(0, 200)}`);
          return res.status === status;
        };

        // Sign-up (client access), then per user: sign-in, refresh, reads, a team with a member, an email.
        const users: Array<{ email: string; id: string; access: string; refresh: string }> = [];
        await pool(
          Array.from({ length: USERS }, (_, i) => i),
          8,
          async (i) => {
            const email = `scale-${i}@example.com`;
            const up = await call(lb, 'POST', '/auth/password/sign-up', SERVER_HEADERS, { email, password: PASSWORD });
            if (!expect(up, 200, `sign-up ${email}`)) return;
            const signIn = await call(lb, 'POST', '/auth/password/sign-in', CLIENT_HEADERS, { email, password: PASSWORD });
            if (!expect(signIn, 200, `sign-in ${email}`)) return;
            const refreshed = await call(lb, 'POST', '/auth/sessions/current/refresh', {
              ...CLIENT_HEADERS,
              'x-stack-refresh-token': signIn.body.refresh_token,
            });
            if (!expect(refreshed, 200, `refresh ${email}`)) return;
            for (let r = 0; r < 3; r++) {
              const me = await call(lb, 'GET', '/users/me', { ...CLIENT_HEADERS, 'x-stack-access-token': refreshed.body.access_token });
              if (expect(me, 200, `read ${email}`) && me.body.primary_email !== email)
                failures.push(`read ${email}: got ${me.body.primary_email}`);
            }
            users.push({ email, id: up.body.user_id, access: refreshed.body.access_token, refresh: signIn.body.refresh_token });
          },
        );
        assert.deepEqual(failures, []);
        const teams: Array<{ id: string; members: string[] }> = [];
        await pool(users, 8, async (user, i) => {
          const other = users[(i + 1) % users.length]!;
          const team = await call(lb, 'POST', '/teams', SERVER_HEADERS, {
            display_name: `team of ${user.email}`,
            creator_user_id: user.id,
          });
          if (!expect(team, 201, `create team for ${user.email}`)) return;
          const member = await call(lb, 'POST', `/team-memberships/${team.body.id}/${other.id}`, SERVER_HEADERS, {});
          if (!expect(member, 201, `add ${other.email} to ${team.body.id}`)) return;
          teams.push({ id: team.body.id, members: [user.id, other.id].sort() });
        });
        // One email each through the outbox (the shared SMTP server): a password-reset code. Two at a
        // time: each renders its email in the sandbox inside its transaction.
        await pool(users, 2, async (user) => {
          const mail = await call(lb, 'POST', '/auth/password/send-reset-code', CLIENT_HEADERS, {
            email: user.email,
            callback_url: 'http://localhost:3000/handler/password-reset',
          });
          expect(mail, 200, `send reset code to ${user.email}`);
        });
        assert.deepEqual(failures, []);
        // The balancer spread the load over all three processes.
        for (const count of balancer.counts) assert.ok(count > USERS, `requests per process: ${balancer.counts.join(', ')}`);

        // No lost or doubled write, read back through each process.
        for (const proc of procs) {
          const list = await call(proc.url, 'GET', '/users?limit=1000', SERVER_HEADERS);
          const emails = (list.body.items as Array<{ primary_email: string }>)
            .map((u) => u.primary_email)
            .filter((e) => e.startsWith('scale-'))
            .sort();
          assert.deepEqual(emails, users.map((u) => u.email).sort());
          for (const team of teams.slice(0, 4)) {
            const members = await call(proc.url, 'GET', `/users?team_id=${team.id}`, SERVER_HEADERS);
            assert.deepEqual((members.body.items as Array<{ id: string }>).map((u) => u.id).sort(), team.members);
          }
        }
        // Outbox: one webhook message per event, one email per send, delivered once each.
        // Per user (the internal project creates a personal team on sign-up): user.created, two
        // team.created (personal and test team), three team_membership.created (personal team,
        // test team's creator, its added member).
        const expectedEvents = USERS * 6;
        const scaleMails = () => smtp.messages.filter((m) => m.to.some((to) => to.startsWith('scale-')));
        // Exactly that many: waited for, then nothing more over a few more polls of the three processes.
        await Promise.all([
          assertExactlyArrives(() => webhooks.received.length, expectedEvents, {
            timeoutMs: 60_000,
            quietMs: 2_500,
            what: 'webhook messages',
          }),
          assertExactlyArrives(() => scaleMails().length, USERS, { timeoutMs: 60_000, quietMs: 2_500, what: 'emails' }),
        ]);
        const ids = webhooks.received.map((r) => String(r.headers['webhook-id']));
        assert.equal(new Set(ids).size, ids.length, 'each webhook message delivered once');
        const byType = (type: string) => webhooks.received.filter((r) => r.payload.type === type).length;
        assert.equal(webhooks.received.length, expectedEvents);
        assert.equal(byType('team.created'), USERS * 2);
        assert.equal(byType('team_membership.created'), USERS * 3);
        assert.equal(
          webhooks.received.filter((r) => r.payload.type === 'user.created' && String(r.payload.data.primary_email).startsWith('scale-'))
            .length,
          USERS,
        );
        const mails = scaleMails();
        assert.equal(mails.length, USERS);
        assert.deepEqual(mails.flatMap((m) => m.to).sort(), users.map((u) => u.email).sort());

        // Revocation: sign out through one process; every process refuses the token within the bound.
        const victim = users[0]!;
        const meOn = (proc: GatehouseProcess) =>
          call(proc.url, 'GET', '/users/me', { ...CLIENT_HEADERS, 'x-stack-access-token': victim.access });
        for (const proc of procs) assert.equal((await meOn(proc)).status, 200);
        const signOut = await call(procs[0]!.url, 'DELETE', '/auth/sessions/current', {
          ...CLIENT_HEADERS,
          'x-stack-access-token': victim.access,
          'x-stack-refresh-token': victim.refresh,
        });
        assert.equal(signOut.status, 200, signOut.text);
        const revokedAt = Date.now();
        const seenAfter: number[] = [];
        await Promise.all(
          procs.map(async (proc, i) => {
            await until(
              async () => (await meOn(proc)).status === 401,
              REVOCATION_BOUND_MS + 3000,
              `process ${i} to refuse the revoked session`,
            );
            seenAfter[i] = Date.now() - revokedAt;
          }),
        );
        // Not a benchmark: the bound is the documented consistency contract (plus request time).
        for (const ms of seenAfter) assert.ok(ms <= REVOCATION_BOUND_MS + 3000, `revocation seen after ${seenAfter.join(', ')} ms`);
      } finally {
        await balancer.close();
        for (const proc of procs) proc.child.kill('SIGKILL');
        await webhooks.close();
        await smtp.stop();
        await db.drop();
      }
    });
  });
}
