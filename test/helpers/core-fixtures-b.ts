import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import type { Credentials } from '../../core/index.ts';
import { KnownError, StatusError, type StatusKind } from '../../core/errors/index.ts';
import type { TestCore } from './core-client.ts';
import { uniqueEmail } from './smtp.ts';

/**
 * In-process fixtures for core tests (test/helpers/core-client.ts), the counterparts of
 * test/helpers/api.ts's HTTP ones: no server, no request, operations called by id.
 */

/** The base URL test cores run with (test/helpers/core-client.ts), as tokens' issuers name it. */
export function coreBaseUrl(t: TestCore): string {
  return t.core.runtime.baseUrl;
}

/** The project key set created with `admin` credentials (`internalApiKeys.create`), full values. */
export async function createCoreProjectKeys(t: TestCore, admin: Credentials) {
  const keys = await t.call<{ publishable_client_key: string; secret_server_key: string; super_secret_admin_key: string }>(
    'internalApiKeys.create',
    admin,
    {
      body: {
        description: 'test keys',
        expires_at_millis: null,
        has_publishable_client_key: true,
        has_secret_server_key: true,
        has_super_secret_admin_key: true,
      },
    },
  );
  return {
    publishableClientKey: keys.publishable_client_key,
    secretServerKey: keys.secret_server_key,
    superSecretAdminKey: keys.super_secret_admin_key,
  };
}

/** Credentials of each access level that present a project's own keys (no admin token). */
export function keyCredentials(projectId: string, keys: Awaited<ReturnType<typeof createCoreProjectKeys>>) {
  return {
    client: { projectId, accessType: 'client', publishableClientKey: keys.publishableClientKey },
    server: { projectId, accessType: 'server', secretServerKey: keys.secretServerKey },
    admin: { projectId, accessType: 'admin', superSecretAdminKey: keys.superSecretAdminKey },
  } satisfies Record<string, Credentials>;
}

/**
 * The value of an operation that answers a raw JSON reply (`reply.json`, e.g. `meta.jwks`), and
 * fails the test when the answer is anything else.
 */
export async function callJson<T = any>(
  t: TestCore,
  operationId: string,
  credentials: Credentials,
  input: Parameters<TestCore['call']>[2] = {},
): Promise<T> {
  const answer = await t.call<{ raw?: true; kind?: string; value?: T }>(operationId, credentials, input);
  assert.equal(answer?.kind, 'json', `${operationId} answered ${JSON.stringify(answer)} instead of a JSON reply`);
  return answer.value as T;
}

/**
 * Verifies `token` against the project's JWKS read in-process (`meta.jwks` with the given
 * query, e.g. `{ include_anonymous: 'true' }`) at the core's clock; returns the payload.
 */
export async function verifyWithProjectJwks(t: TestCore, projectId: string, token: string, query: Record<string, string> = {}) {
  const jwks = await callJson<JSONWebKeySet>(t, 'meta.jwks', {}, { params: { project_id: projectId }, query });
  return (await jwtVerify(token, createLocalJWKSet(jwks), { currentDate: new Date(t.clock.now()) })).payload;
}

/**
 * Runs an operation that must refuse with a plain status error (no known-error code) of `kind`
 * and exactly `message` (the whole body on the wire); returns the error.
 */
export async function refusesWithStatus(
  t: TestCore,
  operationId: string,
  credentials: Credentials,
  input: Parameters<TestCore['call']>[2],
  kind: StatusKind,
  message: string,
): Promise<StatusError> {
  try {
    await t.core.invoke(operationId, credentials, input);
  } catch (error) {
    assert.ok(error instanceof StatusError, `${operationId} threw ${String(error)} instead of a ${kind} status error`);
    assert.equal(error.kind, kind, `${operationId}: expected ${kind}, got ${error.kind}: ${error.message}`);
    assert.equal(error.message, message);
    return error;
  }
  return assert.fail(`${operationId} answered instead of refusing with ${kind} "${message}"`);
}

/** The body of an operation's raw HTML reply (`reply.html`); fails on any other answer. */
export async function callHtml(
  t: TestCore,
  operationId: string,
  credentials: Credentials,
  input: Parameters<TestCore['call']>[2] = {},
): Promise<string> {
  const answer = await t.call<{ kind?: string; body?: string }>(operationId, credentials, input);
  assert.equal(answer?.kind, 'html', `${operationId} answered ${JSON.stringify(answer)} instead of an HTML reply`);
  return answer.body!;
}

/**
 * How an operation refuses, for assertions that accept either error family: the known-error
 * code (e.g. `API_KEY_NOT_FOUND`), or `status:<kind>` with the text for a plain status error
 * (e.g. `status:forbidden`). Fails the test when the operation answers.
 */
export async function refusal(
  t: TestCore,
  operationId: string,
  credentials: Credentials,
  input: Parameters<TestCore['call']>[2] = {},
): Promise<string> {
  try {
    await t.core.invoke(operationId, credentials, input);
  } catch (error) {
    if (error instanceof KnownError) return error.code;
    if (error instanceof StatusError) return `status:${error.kind}`;
    throw error;
  }
  return assert.fail(`${operationId} answered instead of refusing`);
}

/** The password of the MFA fixtures' users (as test/helpers/mfa-users.ts). */
export const MFA_PASSWORD = 'correct horse battery';

/**
 * A password user with TOTP turned on through `users.updateCurrent` (as the SDK does), as
 * test/helpers/mfa-users.ts `totpUser` in-process; with `server`, its email is also verified
 * (OTP sign-in needs a verified email).
 */
export async function createCoreTotpUser(t: TestCore, client: Credentials, server?: Credentials) {
  const email = uniqueEmail('mfa');
  const signUp = await t.call<{ user_id: string; access_token: string }>('authPassword.signUp', client, {
    body: { email, password: MFA_PASSWORD },
  });
  const secret = randomBytes(20).toString('base64');
  const patched = await t.call<{ requires_totp_mfa: boolean }>(
    'users.updateCurrent',
    { ...client, accessToken: signUp.access_token },
    { body: { totp_secret_base64: secret } },
  );
  assert.equal(patched.requires_totp_mfa, true);
  if (server) await t.call('users.update', server, { params: { user_id: signUp.user_id }, body: { primary_email_verified: true } });
  return { email, secret, userId: signUp.user_id, accessToken: signUp.access_token };
}

/** A password sign-in that must stop at MFA: returns its attempt code (and checks no tokens came with it). */
export async function corePasswordAttempt(t: TestCore, client: Credentials, email: string): Promise<string> {
  const refused = await t.refuses(
    'authPassword.signIn',
    client,
    { body: { email, password: MFA_PASSWORD } },
    'MULTI_FACTOR_AUTHENTICATION_REQUIRED',
  );
  assert.equal(refused.status, 400);
  assert.deepEqual(Object.keys(refused.details), ['attempt_code']);
  assert.match(String(refused.details.attempt_code), /^[0-9a-z]{45}$/);
  return refused.details.attempt_code as string;
}
