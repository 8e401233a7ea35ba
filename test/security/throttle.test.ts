import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys, type ApiResponse, type Caller } from '../helpers/api.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../helpers/smtp.ts';
import { startSecondProcess } from '../helpers/second-process.ts';
import type { TestServer } from '../helpers/server.ts';
import { normalizeClientAddress } from '../../core/lib/client-address.ts';
import { clientAddressFromRequest } from '../../server-bin/api/client-address.ts';
import { failureDelayMs, LOCK_AFTER_FAILURES } from '../../core/throttle/limits.ts';
import { generateTotp } from '../../core/mfa/index.ts';
import { passwordAttempt, totpUser } from '../helpers/mfa-users.ts';

// No throttling anywhere (100 wrong passwords in a row, 200 sign-ups and 100
// anonymous sign-ups from one client, 120 emails to two addresses in seconds).

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

/** A project and a client caller with a publishable key (no access token, so the clock may move days). */
async function projectWithKeyClient(server: TestServer, config: Record<string, unknown> = {}) {
  const project = await createProject(server, config);
  const keys = await createProjectKeys(server, project.admin);
  return {
    ...project,
    client: { projectId: project.projectId, accessType: 'client', publishableClientKey: keys.publishableClientKey } as Caller,
  };
}

/** Asserts upstream's 429 shape: JSON `{message}`, no known-error header, and Retry-After when given. */
function assertThrottled(res: ApiResponse, retryAfter: 'present' | 'absent' = 'present'): number | null {
  assert.equal(res.status, 429, res.text);
  assert.equal(res.headers.get('x-stack-known-error'), null);
  assert.equal(typeof res.body.message, 'string');
  const header = res.headers.get('retry-after');
  if (retryAfter === 'absent') {
    assert.equal(header, null);
    return null;
  }
  assert.match(header ?? '', /^[1-9]\d*$/);
  return Number(header);
}

const signIn = (server: TestServer, client: Caller, email: string, password: string) =>
  api(server, 'POST', '/auth/password/sign-in', client, { email, password });

describeWithServer(
  'throttling (issue 12 finding 4)',
  (get) => {
    it('slows down failed password sign-ins per account with growing delays, without telling known from unknown emails', async () => {
      const server = get();
      const { client } = await createProject(server);
      const email = uniqueEmail();
      await api(server, 'POST', '/auth/password/sign-up', client, { email, password: 'right password 1' });
      for (const target of [email, uniqueEmail('nobody')]) {
        for (let i = 0; i < 5; i++)
          assertKnownError(await signIn(server, client, target, 'wrong password'), 'EMAIL_PASSWORD_MISMATCH', 400);
        assert.equal(assertThrottled(await signIn(server, client, target, 'wrong password')), 1);
      }
      // Even the right password waits out the delay; then it works and clears the count.
      assertThrottled(await signIn(server, client, email, 'right password 1'));
      server.clock.advance(1000);
      assert.equal((await signIn(server, client, email, 'right password 1')).status, 200);
      for (let i = 0; i < 5; i++) assertKnownError(await signIn(server, client, email, 'wrong password'), 'EMAIL_PASSWORD_MISMATCH', 400);
    });

    it('suspends password sign-in after 100 consecutive failures until a password reset, and a refused attempt does not extend a delay', async () => {
      const server = get();
      const { client } = await projectWithKeyClient(server);
      const email = uniqueEmail();
      await api(server, 'POST', '/auth/password/sign-up', client, { email, password: 'right password 1' });
      for (let n = 1; n <= LOCK_AFTER_FAILURES; n++) {
        assertKnownError(await signIn(server, client, email, `guess ${n}`), 'EMAIL_PASSWORD_MISMATCH', 400);
        const delay = failureDelayMs(n);
        if (n === 10) {
          // Hammering during the delay is refused and leaves the wait as it was.
          const first = assertThrottled(await signIn(server, client, email, 'guess'));
          assert.equal(assertThrottled(await signIn(server, client, email, 'guess')), first);
        }
        server.clock.advance(delay);
      }
      server.clock.advance(24 * 60 * 60 * 1000 - 60_000);
      assertThrottled(await signIn(server, client, email, 'right password 1'), 'absent');

      await api(server, 'POST', '/auth/password/send-reset-code', client, { email, callback_url: 'http://localhost:3000/reset' });
      const code = codeFromEmail(await smtp.waitFor(email));
      assert.equal((await api(server, 'POST', '/auth/password/reset', client, { code, password: 'new password 22' })).status, 200);
      assert.equal((await signIn(server, client, email, 'new password 22')).status, 200);
    });

    it('slows down second-factor guesses per user across attempt codes', async () => {
      const server = get();
      const { client } = await projectWithKeyClient(server);
      const { email, secret } = await totpUser(server, client);
      const first = await passwordAttempt(server, client, email);
      const right = generateTotp(secret, server.clock.now());
      const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
      for (let i = 0; i < 5; i++)
        assertKnownError(
          await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: wrong, code: first }),
          'INVALID_TOTP_CODE',
          400,
        );
      // A fresh attempt code (the password is known) does not reset the count of second-factor failures.
      const second = await passwordAttempt(server, client, email);
      assert.equal(assertThrottled(await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: right, code: second })), 1);
      server.clock.advance(1000);
      assert.equal(
        (
          await api(server, 'POST', '/auth/mfa/sign-in', client, {
            type: 'totp',
            totp: generateTotp(secret, server.clock.now()),
            code: second,
          })
        ).status,
        200,
      );
    });

    it('limits sign-in attempts per client address across accounts, for client requests only', async () => {
      const server = get();
      // The default is 60 per 5 minutes; a small override keeps the test short (same code path).
      const { client, server: srv } = await projectWithKeyClient(server, {
        rate_limits: { sign_in_per_address: { limit: 6, window_seconds: 30 } },
      });
      for (let i = 0; i < 6; i++)
        assertKnownError(await signIn(server, client, `spray${i}@example.com`, 'password123'), 'EMAIL_PASSWORD_MISMATCH', 400);
      const retry = assertThrottled(await signIn(server, client, 'spray60@example.com', 'password123'));
      assert.equal(retry, 5, 'one token comes back every 5 s');
      assertThrottled(await api(server, 'POST', '/auth/otp/sign-in', client, { code: 'x'.repeat(45) }));
      assertKnownError(await signIn(server, srv, 'spray61@example.com', 'password123'), 'EMAIL_PASSWORD_MISMATCH', 400);
      server.clock.advance(retry! * 1000);
      assertKnownError(await signIn(server, client, 'spray62@example.com', 'password123'), 'EMAIL_PASSWORD_MISMATCH', 400);
    });

    it('limits password and anonymous sign-ups per client address', async () => {
      const server = get();
      const { client } = await createProject(server);
      for (let i = 0; i < 30; i++) {
        const res = await api(server, 'POST', '/auth/password/sign-up', client, {
          email: uniqueEmail(`burst${i}`),
          password: 'burst password 1',
        });
        assert.equal(res.status, 200, res.text);
      }
      assertThrottled(await api(server, 'POST', '/auth/password/sign-up', client, { email: uniqueEmail(), password: 'burst password 1' }));
      for (let i = 0; i < 60; i++) assert.equal((await api(server, 'POST', '/auth/anonymous/sign-up', client)).status, 200);
      assertThrottled(await api(server, 'POST', '/auth/anonymous/sign-up', client));
    });

    it('limits emails per recipient on every email route, answering an unknown address the same way', async () => {
      const server = get();
      const { client, server: srv } = await createProject(server, { magic_link_enabled: true });
      const email = uniqueEmail();
      for (let i = 0; i < 10; i++)
        assert.equal(
          (await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email, callback_url: 'http://localhost:3000/cb' })).status,
          200,
        );
      assertThrottled(
        await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email, callback_url: 'http://localhost:3000/cb' }),
      );
      assertThrottled(
        await api(server, 'POST', '/auth/password/send-reset-code', client, { email, callback_url: 'http://localhost:3000/cb' }),
      );
      const team = await api(server, 'POST', '/teams', srv, { display_name: 'T' });
      assertThrottled(
        await api(server, 'POST', '/team-invitations/send-code', srv, {
          email,
          team_id: team.body.id,
          callback_url: 'http://localhost:3000/cb',
        }),
      );
      const unknown = uniqueEmail('nobody');
      for (let i = 0; i < 10; i++)
        assert.equal(
          (
            await api(server, 'POST', '/auth/password/send-reset-code', client, {
              email: unknown,
              callback_url: 'http://localhost:3000/cb',
            })
          ).status,
          200,
        );
      assertThrottled(
        await api(server, 'POST', '/auth/password/send-reset-code', client, { email: unknown, callback_url: 'http://localhost:3000/cb' }),
      );
    });

    it('limits emails per project, with a per-project override', async () => {
      const server = get();
      const { client, admin } = await createProject(server, {
        magic_link_enabled: true,
        rate_limits: { email_per_project: { limit: 3, window_seconds: 3600 } },
      });
      for (let i = 0; i < 3; i++)
        assert.equal(
          (
            await api(server, 'POST', '/auth/otp/send-sign-in-code', client, {
              email: uniqueEmail(),
              callback_url: 'http://localhost:3000/cb',
            })
          ).status,
          200,
        );
      assertThrottled(
        await api(server, 'POST', '/auth/otp/send-sign-in-code', client, {
          email: uniqueEmail(),
          callback_url: 'http://localhost:3000/cb',
        }),
      );
      assert.equal(
        (await api(server, 'PATCH', '/internal/projects/current', admin, { config: { rate_limits: { email_per_project: null } } })).status,
        200,
      );
      assert.equal(
        (
          await api(server, 'POST', '/auth/otp/send-sign-in-code', client, {
            email: uniqueEmail(),
            callback_url: 'http://localhost:3000/cb',
          })
        ).status,
        200,
      );
      assertKnownError(
        await api(server, 'PATCH', '/internal/projects/current', admin, {
          config: { rate_limits: { email_per_project: { limit: 0, window_seconds: 1 } } },
        }),
        'SCHEMA_ERROR',
        400,
      );
    });

    it('lets a project turn throttling off', async () => {
      const server = get();
      const { client } = await createProject(server, { rate_limits: { enabled: false } });
      for (let i = 0; i < 70; i++) assert.equal((await api(server, 'POST', '/auth/anonymous/sign-up', client)).status, 200);
      for (let i = 0; i < 8; i++)
        assertKnownError(await signIn(server, client, 'someone@example.com', 'wrong password'), 'EMAIL_PASSWORD_MISMATCH', 400);
    });

    it('shares the limits between processes on one database', async () => {
      const server = get();
      const other = await startSecondProcess(server);
      after(() => other.close());
      const { client } = await createProject(server);
      const email = uniqueEmail('shared');
      for (let i = 0; i < 5; i++)
        assertKnownError(await signIn(i % 2 ? other.view : server, client, email, 'wrong password'), 'EMAIL_PASSWORD_MISMATCH', 400);
      assertThrottled(await signIn(other.view, client, email, 'wrong password'));
      assertThrottled(await signIn(server, client, email, 'wrong password'));
    });

    it('ignores X-Forwarded-For unless a trusted proxy is configured', async () => {
      const server = get();
      const small = { rate_limits: { sign_in_per_address: { limit: 5, window_seconds: 300 } } };
      const { client } = await createProject(server, small);
      const forged = (i: number) => ({ ...client, headers: { 'x-forwarded-for': `198.51.100.${i}` } });
      for (let i = 0; i < 5; i++)
        assertKnownError(await signIn(server, forged(i), `a${i}@example.com`, 'password123'), 'EMAIL_PASSWORD_MISMATCH', 400);
      assertThrottled(await signIn(server, forged(99), 'b@example.com', 'password123'));

      const proxied = await startSecondProcess(server, { trustedProxyHops: 1 });
      after(() => proxied.close());
      const { client: c2 } = await createProject(server, small);
      const via = (addr: string) => ({ ...c2, headers: { 'x-forwarded-for': `10.9.9.9, ${addr}` } });
      for (let i = 0; i < 5; i++)
        assertKnownError(
          await signIn(proxied.view, via('203.0.113.1'), `c${i}@example.com`, 'password123'),
          'EMAIL_PASSWORD_MISMATCH',
          400,
        );
      assertThrottled(await signIn(proxied.view, via('203.0.113.1'), 'd@example.com', 'password123'));
      assertKnownError(await signIn(proxied.view, via('203.0.113.2'), 'e@example.com', 'password123'), 'EMAIL_PASSWORD_MISMATCH', 400);
    });
  },
  { smtpUrl: smtp.url },
);

describe('client addresses', () => {
  it('normalizes IPv4, IPv4-mapped IPv6 and IPv6 (to its /64)', () => {
    assert.equal(normalizeClientAddress('203.0.113.7'), '203.0.113.7');
    assert.equal(normalizeClientAddress('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(normalizeClientAddress('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
    assert.equal(normalizeClientAddress('2001:db8:1:2:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
    assert.equal(normalizeClientAddress('[2001:db8::1]'), '2001:db8:0:0::/64');
    assert.equal(normalizeClientAddress('not an address'), null);
    assert.equal(normalizeClientAddress(null), null);
  });

  it('takes the peer unless trusted proxies are configured, then the entry the outermost trusted proxy added', () => {
    assert.equal(clientAddressFromRequest('10.0.0.1', '1.2.3.4', 0), '10.0.0.1');
    assert.equal(clientAddressFromRequest('10.0.0.1', 'forged, 1.2.3.4', 1), '1.2.3.4');
    assert.equal(clientAddressFromRequest('10.0.0.1', 'forged, 1.2.3.4, 10.0.0.2', 2), '1.2.3.4');
    assert.equal(clientAddressFromRequest('10.0.0.1', undefined, 1), '10.0.0.1');
    assert.equal(clientAddressFromRequest('10.0.0.1', '1.2.3.4', 3), '10.0.0.1');
  });
});
