import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import type { Credentials } from '../index.ts';
import { KnownError, StatusError } from '../errors/index.ts';
import { generateTotp } from '../mfa/index.ts';
import {
  createCoreInternalUser,
  createCoreProject,
  describeWithCore,
  internalCredentials,
  type TestCore,
} from '../../test/helpers/core-client.ts';
import { coreBaseUrl } from '../../test/helpers/core-fixtures-b.ts';
import { SoftAuthenticator } from '../../test/helpers/webauthn.ts';

// In-process (test/helpers/core-client.ts): the WebAuthn ceremonies, with a software
// authenticator signing for the origins a browser would report.

const ORIGIN = 'http://localhost:3000';
const SENTINEL = 'THIS_VALUE_WILL_BE_REPLACED.example.com';

type Project = Awaited<ReturnType<typeof createCoreProject>>;

/** What an operation answered: its value, or the known or status error it refused with. */
type Outcome = { value: any; error?: undefined } | { value?: undefined; error: KnownError | StatusError };

async function attempt(
  t: TestCore,
  operationId: string,
  credentials: Credentials,
  input: Parameters<TestCore['call']>[2] = {},
): Promise<Outcome> {
  try {
    return { value: await t.core.invoke(operationId, credentials, input) };
  } catch (error) {
    if (error instanceof KnownError || error instanceof StatusError) return { error };
    throw error;
  }
}

/** Asserts a refusal with the known error `code` (and its catalogue `status` when given); returns the error. */
function refused(outcome: Outcome, code: string, status?: number): KnownError {
  const { error } = outcome;
  assert.ok(error instanceof KnownError, `expected ${code}, got ${error ? `${error.message}` : JSON.stringify(outcome.value)}`);
  assert.equal(error.code, code, error.message);
  if (status !== undefined) assert.equal(error.status, status);
  return error;
}

/** Asserts a plain status refusal of `kind`; returns its text. */
function refusedWithStatus(outcome: Outcome, kind: string): string {
  assert.ok(outcome.error instanceof StatusError, `expected a ${kind} status error, got ${JSON.stringify(outcome.error ?? outcome.value)}`);
  assert.equal(outcome.error.kind, kind);
  return outcome.error.message;
}

/** The value of an outcome that must have succeeded. */
function ok(outcome: Outcome): any {
  assert.equal(outcome.error, undefined, outcome.error?.message);
  return outcome.value;
}

/** A user of the project with a session, as client credentials. */
async function signedInUser(t: TestCore, p: Project, email = `pk-${Math.random().toString(36).slice(2)}@example.com`) {
  const user = await t.call<{ id: string }>('users.create', p.server, {
    body: { primary_email: email, primary_email_auth_enabled: true, display_name: 'Passkey Person' },
  });
  const session = await t.call<{ access_token: string }>('sessions.create', p.server, {
    body: { user_id: user.id, expires_in_millis: 3600000, is_impersonation: false },
  });
  return { id: user.id, client: { ...p.client, accessToken: session.access_token } as Credentials };
}

const me = (t: TestCore, client: Credentials) => t.call<any>('users.getCurrent', client);
const listPasskeys = (t: TestCore, caller: Credentials, userId = 'me') =>
  t.call<{ items: any[] }>('passkeys.list', caller, { query: { user_id: userId } });

/** Registers a passkey for `client` from `origin`; answers the register outcome. */
async function register(
  t: TestCore,
  client: Credentials,
  authenticator: SoftAuthenticator,
  origin = ORIGIN,
  overrides: { challenge?: string } = {},
) {
  const init = await t.call<any>('passkeys.initiateRegistration', client, { body: {} });
  const credential = authenticator.register(init.options_json, origin, overrides);
  return attempt(t, 'passkeys.register', client, { body: { credential, code: init.code } });
}

async function signIn(
  t: TestCore,
  client: Credentials,
  authenticator: SoftAuthenticator,
  origin = ORIGIN,
  overrides: { challenge?: string } = {},
) {
  const init = await t.call<any>('passkeys.initiateAuthentication', client, { body: {} });
  const authentication_response = authenticator.authenticate(init.options_json, origin, overrides);
  const outcome = await attempt(t, 'passkeys.signIn', client, { body: { authentication_response, code: init.code } });
  return Object.assign(outcome, { code: init.code as string, authentication_response });
}

const updateConfig = (t: TestCore, admin: Credentials, config: Record<string, unknown>) =>
  t.call('projects.updateCurrent', admin, { body: { config } });

describeWithCore('passkeys', (get) => {
  it('answers authentication options with the RP id sentinel, an empty allow list and a challenge code', async () => {
    const t = get();
    const p = await createCoreProject(t, { passkey_enabled: true });
    // As the wire carries it: JSON drops the options' undefined members.
    const res = JSON.parse(JSON.stringify(await t.call<any>('passkeys.initiateAuthentication', p.client, { body: {} })));
    assert.deepEqual(Object.keys(res.options_json).sort(), ['allowCredentials', 'challenge', 'rpId', 'timeout', 'userVerification']);
    assert.deepEqual(res.options_json.allowCredentials, []);
    assert.equal(res.options_json.rpId, SENTINEL);
    assert.equal(res.options_json.timeout, 60000);
    assert.equal(res.options_json.userVerification, 'preferred');
    assert.match(res.options_json.challenge, /^[A-Za-z0-9_-]{40,}$/);
    assert.match(res.code, /^[0-9a-z]{45}$/);
  });

  it('registers a passkey for the signed-in user, who then reports passkey_auth_enabled and lists it', async () => {
    const t = get();
    const p = await createCoreProject(t, { passkey_enabled: true });
    const user = await signedInUser(t, p);
    const init = await t.call<any>('passkeys.initiateRegistration', user.client, { body: {} });
    const options = init.options_json;
    assert.equal(options.rp.id, SENTINEL);
    assert.equal(options.rp.name, 'New Project');
    assert.equal(Buffer.from(options.user.id, 'base64url').toString(), user.id, 'the user handle is the user id');
    assert.equal(options.user.name, 'Passkey Person');
    assert.equal(options.authenticatorSelection.residentKey, 'required');
    assert.equal(options.timeout, 60000);
    assert.equal('hints' in options, false);

    const authenticator = new SoftAuthenticator();
    const credential = authenticator.register(options, ORIGIN);
    const registered = await t.call('passkeys.register', user.client, { body: { credential, code: init.code } });
    assert.deepEqual(registered, { user_handle: credential.id });

    assert.equal((await me(t, user.client)).passkey_auth_enabled, true);
    const list = await listPasskeys(t, user.client);
    assert.equal(list.items.length, 1);
    assert.equal(list.items[0].credential_id, credential.id);
    assert.equal(list.items[0].last_used_at_millis, null);
    assert.equal('public_key' in list.items[0], false);

    refused(
      await attempt(t, 'passkeys.register', user.client, { body: { credential, code: init.code } }),
      'VERIFICATION_CODE_ALREADY_USED',
      409,
    );
    const again = await t.call<any>('passkeys.initiateRegistration', user.client, { body: {} });
    assert.deepEqual(
      again.options_json.excludeCredentials.map((c: { id: string }) => c.id),
      [credential.id],
      'the registered authenticator is excluded',
    );
  });

  it('signs in with a registered passkey, issuing working tokens for its owner, and the challenge code is single use', async () => {
    const t = get();
    const p = await createCoreProject(t, { passkey_enabled: true });
    const user = await signedInUser(t, p);
    const authenticator = new SoftAuthenticator();
    ok(await register(t, user.client, authenticator));

    const res = await signIn(t, p.client, authenticator);
    const tokens = ok(res);
    assert.deepEqual(Object.keys(tokens).sort(), ['access_token', 'is_new_user', 'refresh_token', 'user_id']);
    assert.equal(tokens.user_id, user.id);
    assert.equal(tokens.is_new_user, false);
    assert.equal((await me(t, { ...p.client, accessToken: tokens.access_token })).id, user.id);
    assert.notEqual((await listPasskeys(t, p.server, user.id)).items[0].last_used_at_millis, null);

    const replay = await attempt(t, 'passkeys.signIn', p.client, {
      body: { authentication_response: res.authentication_response, code: res.code },
    });
    refused(replay, 'VERIFICATION_CODE_ALREADY_USED', 409);
    ok(await signIn(t, p.client, authenticator)); // a second ceremony with a fresh challenge works (counter advanced)
  });

  it('asks a user with TOTP on for the second factor instead of issuing tokens, then completes with mfa.signIn', async () => {
    const t = get();
    const p = await createCoreProject(t, { passkey_enabled: true });
    const user = await signedInUser(t, p);
    const authenticator = new SoftAuthenticator();
    ok(await register(t, user.client, authenticator));
    const secret = randomBytes(20).toString('base64');
    await t.call('users.updateCurrent', user.client, { body: { totp_secret_base64: secret } });

    const error = refused(await signIn(t, p.client, authenticator), 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);
    const attemptCode = error.details.attempt_code as string;
    assert.match(attemptCode, /^[0-9a-z]{45}$/);
    const done = await t.call<any>('mfa.signIn', p.client, {
      body: { type: 'totp', totp: generateTotp(secret, t.clock.now()), code: attemptCode },
    });
    assert.equal(done.user_id, user.id);
    assert.equal(done.is_new_user, false);
  });

  it('refuses a response signed over another challenge, for registration and for sign-in, and burns the code', async () => {
    const t = get();
    const p = await createCoreProject(t, { passkey_enabled: true });
    const user = await signedInUser(t, p);
    const authenticator = new SoftAuthenticator();
    const wrongChallenge = Buffer.from('not the server challenge').toString('base64url');
    const badRegistration = refused(
      await register(t, user.client, authenticator, ORIGIN, { challenge: wrongChallenge }),
      'PASSKEY_REGISTRATION_FAILED',
      400,
    );
    assert.equal(badRegistration.message, 'Passkey registration failed because the challenge does not match');
    assert.equal((await me(t, user.client)).passkey_auth_enabled, false);

    ok(await register(t, user.client, authenticator));
    const bad = await signIn(t, p.client, authenticator, ORIGIN, { challenge: wrongChallenge });
    assert.equal(
      refused(bad, 'PASSKEY_AUTHENTICATION_FAILED', 400).message,
      'Passkey authentication failed because the challenge does not match',
    );
    const retry = await attempt(t, 'passkeys.signIn', p.client, {
      body: { authentication_response: bad.authentication_response, code: bad.code },
    });
    refused(retry, 'VERIFICATION_CODE_ALREADY_USED', 409);
  });

  it('refuses an unknown credential with "Passkey not found" and a bad signature with the upstream message', async () => {
    const t = get();
    const p = await createCoreProject(t, { passkey_enabled: true });
    const user = await signedInUser(t, p);
    const authenticator = new SoftAuthenticator();
    ok(await register(t, user.client, authenticator));

    const stranger = new SoftAuthenticator();
    stranger.register({ user: { id: Buffer.from(user.id).toString('base64url') } }, ORIGIN);
    assert.equal(refused(await signIn(t, p.client, stranger), 'PASSKEY_AUTHENTICATION_FAILED', 400).message, 'Passkey not found');

    const init = await t.call<any>('passkeys.initiateAuthentication', p.client, { body: {} });
    const response = authenticator.authenticate(init.options_json, ORIGIN);
    const sig = Buffer.from(response.response.signature, 'base64url');
    sig.writeUInt8(sig.readUInt8(sig.length - 1) ^ 0x01, sig.length - 1);
    const tampered = await attempt(t, 'passkeys.signIn', p.client, {
      body: {
        authentication_response: { ...response, response: { ...response.response, signature: sig.toString('base64url') } },
        code: init.code,
      },
    });
    refused(tampered, 'PASSKEY_AUTHENTICATION_FAILED', 400);
  });

  it('answers PASSKEY_AUTHENTICATION_NOT_ENABLED on every ceremony when the switch is off', async () => {
    const t = get();
    const p = await createCoreProject(t, { passkey_enabled: true });
    const user = await signedInUser(t, p);
    const authenticator = new SoftAuthenticator();
    const init = await t.call<any>('passkeys.initiateRegistration', user.client, { body: {} });
    const credential = authenticator.register(init.options_json, ORIGIN);
    const authInit = await t.call<any>('passkeys.initiateAuthentication', p.client, { body: {} });

    await updateConfig(t, p.admin, { passkey_enabled: false });
    const notEnabled = (outcome: Outcome) =>
      assert.equal(
        refused(outcome, 'PASSKEY_AUTHENTICATION_NOT_ENABLED', 400).message,
        'Passkey authentication is not enabled for this project.',
      );
    notEnabled(await attempt(t, 'passkeys.initiateRegistration', user.client, { body: {} }));
    notEnabled(await attempt(t, 'passkeys.register', user.client, { body: { credential, code: init.code } }));
    notEnabled(await attempt(t, 'passkeys.initiateAuthentication', p.client, { body: {} }));
    notEnabled(
      await attempt(t, 'passkeys.signIn', p.client, {
        body: { authentication_response: authenticator.authenticate(authInit.options_json, ORIGIN), code: authInit.code },
      }),
    );
  });

  it('answers a catalogue error, never a crash, for well-shaped responses with garbage inside', async () => {
    const t = get();
    const p = await createCoreProject(t, { passkey_enabled: true });
    const user = await signedInUser(t, p);
    const authenticator = new SoftAuthenticator();
    const clientData = (type: string, challenge: string) =>
      Buffer.from(JSON.stringify({ type, challenge, origin: ORIGIN })).toString('base64url');
    const garbage = ['', 'AAAA', '!!!not-base64!!!', Buffer.from('{"type":').toString('base64url')];
    const variants = <T extends { response: object }>(good: T, junk: string, challenge: string, type: string) => [
      { ...good, response: { ...good.response, clientDataJSON: junk } },
      ...(type === 'webauthn.create'
        ? [{ ...good, response: { ...good.response, attestationObject: junk, clientDataJSON: clientData(type, challenge) } }]
        : [
            { ...good, response: { ...good.response, authenticatorData: junk } },
            { ...good, response: { ...good.response, signature: junk } },
          ]),
    ];
    for (const junk of garbage) {
      for (let i = 0; i < 2; i++) {
        const init = await t.call<any>('passkeys.initiateRegistration', user.client, { body: {} });
        const credential = variants(
          authenticator.register(init.options_json, ORIGIN),
          junk,
          init.options_json.challenge,
          'webauthn.create',
        )[i];
        const error = refused(
          await attempt(t, 'passkeys.register', user.client, { body: { credential, code: init.code } }),
          'PASSKEY_REGISTRATION_FAILED',
          400,
        );
        if (i > 0)
          assert.equal(
            error.message,
            'Passkey registration failed because the verification response is invalid',
            'the attestation itself was checked',
          );
      }
    }
    authenticator.credentials.length = 0;
    ok(await register(t, user.client, authenticator));
    for (const junk of garbage) {
      for (let i = 0; i < 3; i++) {
        const init = await t.call<any>('passkeys.initiateAuthentication', p.client, { body: {} });
        const response = variants(authenticator.authenticate(init.options_json, ORIGIN), junk, init.options_json.challenge, 'webauthn.get')[
          i
        ];
        const outcome = await attempt(t, 'passkeys.signIn', p.client, { body: { authentication_response: response, code: init.code } });
        const error = refused(outcome, 'PASSKEY_AUTHENTICATION_FAILED', 400);
        if (i > 0) assert.doesNotMatch(error.message, /challenge|origin|not found/, 'the assertion itself was checked');
      }
    }
    const missing = await attempt(t, 'passkeys.signIn', p.client, {
      body: { authentication_response: { id: 'x', rawId: 'x', type: 'public-key', response: {} }, code: 'x' },
    });
    assert.match(refused(missing, 'SCHEMA_ERROR', 400).message, /clientDataJSON/);
  });

  it('needs a signed-in user to register', async () => {
    const t = get();
    const p = await createCoreProject(t, { passkey_enabled: true });
    refused(await attempt(t, 'passkeys.initiateRegistration', p.client, { body: {} }), 'USER_AUTHENTICATION_REQUIRED');
  });

  it('refuses a registration code issued to another user', async () => {
    const t = get();
    const p = await createCoreProject(t, { passkey_enabled: true });
    const alice = await signedInUser(t, p);
    const bob = await signedInUser(t, p);
    const init = await t.call<any>('passkeys.initiateRegistration', alice.client, { body: {} });
    const credential = new SoftAuthenticator().register(init.options_json, ORIGIN);
    refused(
      await attempt(t, 'passkeys.register', bob.client, { body: { credential, code: init.code } }),
      'PASSKEY_REGISTRATION_FAILED',
      400,
    );
    assert.equal((await me(t, bob.client)).passkey_auth_enabled, false);
  });

  it('accepts origins of exact and wildcard trusted domains and refuses others when localhost is not allowed', async () => {
    const t = get();
    const p = await createCoreProject(t, { passkey_enabled: true });
    await updateConfig(t, p.admin, {
      allow_localhost: false,
      domains: [{ domain: 'https://app.example.com' }, { domain: 'https://*.shop.example.org' }],
    });
    const user = await signedInUser(t, p);
    const authenticator = new SoftAuthenticator();

    const local = refused(await register(t, user.client, authenticator, ORIGIN), 'PASSKEY_REGISTRATION_FAILED', 400);
    assert.equal(local.message, 'Passkey registration failed because the origin is not allowed');
    refused(await register(t, user.client, authenticator, 'https://evil.example.com'), 'PASSKEY_REGISTRATION_FAILED');
    refused(await register(t, user.client, authenticator, 'http://app.example.com'), 'PASSKEY_REGISTRATION_FAILED');

    ok(await register(t, user.client, authenticator, 'https://app.example.com'));
    ok(await signIn(t, p.client, authenticator, 'https://app.example.com'));

    ok(await register(t, user.client, authenticator, 'https://eu.shop.example.org'));
    ok(await signIn(t, p.client, authenticator, 'https://eu.shop.example.org'));
    const foreign = refused(await signIn(t, p.client, authenticator, 'https://eu.shop.example.net'), 'PASSKEY_AUTHENTICATION_FAILED', 400);
    assert.equal(foreign.message, 'Passkey authentication failed because the origin is not allowed');
    assert.equal((await listPasskeys(t, user.client)).items.length, 2);
  });

  it("accepts the server's own origin (its hosted pages) without localhost or trusted domains", async () => {
    const t = get();
    const p = await createCoreProject(t, { passkey_enabled: true, allow_localhost: false });
    const user = await signedInUser(t, p);
    const authenticator = new SoftAuthenticator();
    const own = new URL(coreBaseUrl(t)).origin;
    ok(await register(t, user.client, authenticator, own));
    ok(await signIn(t, p.client, authenticator, own));
  });

  it("works for the internal project's hosted pages, on the server's own base URL", async () => {
    const t = get();
    await updateConfig(t, internalCredentials.admin, { passkey_enabled: true });
    try {
      const owner = await createCoreInternalUser(t);
      const client = { ...internalCredentials.client, accessToken: owner.accessToken };
      const authenticator = new SoftAuthenticator();
      const own = new URL(coreBaseUrl(t)).origin;
      ok(await register(t, client, authenticator, own));
      assert.equal(ok(await signIn(t, internalCredentials.client, authenticator, own)).user_id, owner.id);
    } finally {
      await updateConfig(t, internalCredentials.admin, { passkey_enabled: false });
    }
  });

  it('refuses an assertion whose signature counter did not advance (a cloned authenticator)', async () => {
    const t = get();
    const p = await createCoreProject(t, { passkey_enabled: true });
    const user = await signedInUser(t, p);
    const authenticator = new SoftAuthenticator();
    ok(await register(t, user.client, authenticator));
    ok(await signIn(t, p.client, authenticator));
    ok(await signIn(t, p.client, authenticator));
    authenticator.credentials[0]!.counter = 0; // the clone's next signature carries counter 1 again
    const cloned = refused(await signIn(t, p.client, authenticator), 'PASSKEY_AUTHENTICATION_FAILED', 400);
    assert.equal(cloned.message, 'Passkey authentication failed because the authentication response could not be verified');
  });

  it('removes one passkey by id and all of them with passkey_auth_enabled false; refuses enabling it by hand', async () => {
    const t = get();
    const p = await createCoreProject(t, { passkey_enabled: true });
    const user = await signedInUser(t, p);
    const phone = new SoftAuthenticator();
    const laptop = new SoftAuthenticator();
    const phoneId = ok(await register(t, user.client, phone)).user_handle;
    ok(await register(t, user.client, laptop));
    const items = (await listPasskeys(t, user.client)).items;
    assert.equal(items.length, 2);
    const phoneKey = items.find((k: { credential_id: string }) => k.credential_id === phoneId);

    const remove = (caller: Credentials, userId: string, passkeyId: string) =>
      attempt(t, 'passkeys.delete', caller, { params: { user_id: userId, passkey_id: passkeyId } });
    assert.deepEqual(ok(await remove(user.client, 'me', phoneKey.id)), { success: true });
    assert.equal(statusOf((await remove(user.client, 'me', phoneKey.id)).error), 404);
    assert.equal((await me(t, user.client)).passkey_auth_enabled, true, 'one passkey left');
    assert.equal(refused(await signIn(t, p.client, phone), 'PASSKEY_AUTHENTICATION_FAILED').message, 'Passkey not found');
    ok(await signIn(t, p.client, laptop));

    const manual = await attempt(t, 'users.updateCurrent', user.client, { body: { passkey_auth_enabled: true } });
    assert.match(refusedWithStatus(manual, 'bad-request'), /Cannot manually enable passkey auth/);

    const cleared = await t.call<any>('users.update', p.server, { params: { user_id: user.id }, body: { passkey_auth_enabled: false } });
    assert.equal(cleared.passkey_auth_enabled, false);
    assert.deepEqual((await listPasskeys(t, user.client)).items, []);
    assert.equal(refused(await signIn(t, p.client, laptop), 'PASSKEY_AUTHENTICATION_FAILED').message, 'Passkey not found');
  });

  it("keeps clients to their own passkeys while server and admin callers manage anyone's", async () => {
    const t = get();
    const p = await createCoreProject(t, { passkey_enabled: true });
    const alice = await signedInUser(t, p);
    const bob = await signedInUser(t, p);
    ok(await register(t, alice.client, new SoftAuthenticator()));
    const id = (await listPasskeys(t, p.admin, alice.id)).items[0].id;
    assert.equal(statusOf((await attempt(t, 'passkeys.list', bob.client, { query: { user_id: alice.id } })).error), 403);
    assert.equal(statusOf((await attempt(t, 'passkeys.delete', bob.client, { params: { user_id: alice.id, passkey_id: id } })).error), 403);
    const wrongUser = await attempt(t, 'passkeys.delete', p.admin, { params: { user_id: bob.id, passkey_id: id } });
    assert.equal(statusOf(wrongUser.error), 404, 'the id must belong to the named user');
    assert.deepEqual(ok(await attempt(t, 'passkeys.delete', p.admin, { params: { user_id: alice.id, passkey_id: id } })), {
      success: true,
    });
    assert.equal((await t.call<any>('users.get', p.server, { params: { user_id: alice.id } })).passkey_auth_enabled, false);
  });

  it('keeps passkeys inside their project', async () => {
    const t = get();
    const a = await createCoreProject(t, { passkey_enabled: true });
    const b = await createCoreProject(t, { passkey_enabled: true });
    const user = await signedInUser(t, a);
    const authenticator = new SoftAuthenticator();
    ok(await register(t, user.client, authenticator));
    assert.equal(refused(await signIn(t, b.client, authenticator), 'PASSKEY_AUTHENTICATION_FAILED').message, 'Passkey not found');
  });
});

/** The HTTP status a refusal maps to (a known error's catalogue status, a status error's kind). */
function statusOf(error: KnownError | StatusError | undefined): number {
  assert.ok(error, 'the operation answered instead of refusing');
  if (error instanceof KnownError) return error.status;
  return { 'bad-request': 400, unauthorized: 401, forbidden: 403, 'not-found': 404, conflict: 409, 'too-many-requests': 429 }[error.kind];
}
