import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { api, assertKnownError, type Caller } from './api.ts';
import { uniqueEmail } from './smtp.ts';
import type { TestServer } from './server.ts';

/** Test helpers for MFA suites: a TOTP user and a first-factor sign-in that must stop at MFA. */
export const PASSWORD = 'correct horse battery';

/** A password user with TOTP turned on through `PATCH /users/me`, as the SDK does. */
export async function totpUser(server: TestServer, client: Caller, srv?: Caller) {
  const email = uniqueEmail('mfa');
  const signUp = await api(server, 'POST', '/auth/password/sign-up', client, { email, password: PASSWORD });
  assert.equal(signUp.status, 200, signUp.text);
  const secret = randomBytes(20).toString('base64');
  const patched = await api(
    server,
    'PATCH',
    '/users/me',
    { ...client, accessToken: signUp.body.access_token },
    { totp_secret_base64: secret },
  );
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.requires_totp_mfa, true);
  if (srv) {
    // OTP sign-in needs a verified email (an unverified one answers USER_EMAIL_ALREADY_EXISTS).
    const verified = await api(server, 'PATCH', `/users/${signUp.body.user_id}`, srv, { primary_email_verified: true });
    assert.equal(verified.status, 200, verified.text);
  }
  return { email, secret, userId: signUp.body.user_id as string, accessToken: signUp.body.access_token as string };
}

export async function passwordAttempt(server: TestServer, client: Caller, email: string): Promise<string> {
  const res = await api(server, 'POST', '/auth/password/sign-in', client, { email, password: PASSWORD });
  assertKnownError(res, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);
  assert.equal(res.body.access_token, undefined);
  assert.equal(res.body.refresh_token, undefined);
  assert.match(res.body.details.attempt_code, /^[0-9a-z]{45}$/);
  return res.body.details.attempt_code;
}
