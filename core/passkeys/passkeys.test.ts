import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import {
  api,
  assertKnownError,
  createInternalUser,
  createProject,
  internal,
  type ApiResponse,
  type Caller,
} from '../../test/helpers/api.ts';
import { SoftAuthenticator } from '../../test/helpers/webauthn.ts';
import type { TestServer } from '../../test/helpers/server.ts';
import { randomBytes } from 'node:crypto';
import { generateTotp } from '../mfa/index.ts';

const ORIGIN = 'http://localhost:3000';
const SENTINEL = 'THIS_VALUE_WILL_BE_REPLACED.example.com';

/** A user of the project with a session, as a client caller. */
async function signedInUser(
  server: TestServer,
  p: Awaited<ReturnType<typeof createProject>>,
  email = `pk-${Math.random().toString(36).slice(2)}@example.com`,
) {
  const user = await api(server, 'POST', '/users', p.server, {
    primary_email: email,
    primary_email_auth_enabled: true,
    display_name: 'Passkey Person',
  });
  assert.equal(user.status, 201, user.text);
  const session = await api(server, 'POST', '/auth/sessions', p.server, {
    user_id: user.body.id,
    expires_in_millis: 3600000,
    is_impersonation: false,
  });
  assert.equal(session.status, 200, session.text);
  return { id: user.body.id as string, client: { ...p.client, accessToken: session.body.access_token } as Caller };
}

/** Registers a passkey for `client` from `origin`; answers the register response. */
async function register(
  server: TestServer,
  client: Caller,
  authenticator: SoftAuthenticator,
  origin = ORIGIN,
  overrides: { challenge?: string } = {},
) {
  const init = await api(server, 'POST', '/auth/passkey/initiate-passkey-registration', client, {});
  assert.equal(init.status, 200, init.text);
  const credential = authenticator.register(init.body.options_json, origin, overrides);
  return api(server, 'POST', '/auth/passkey/register', client, { credential, code: init.body.code });
}

async function signIn(
  server: TestServer,
  client: Caller,
  authenticator: SoftAuthenticator,
  origin = ORIGIN,
  overrides: { challenge?: string } = {},
) {
  const init = await api(server, 'POST', '/auth/passkey/initiate-passkey-authentication', client, {});
  assert.equal(init.status, 200, init.text);
  const authentication_response = authenticator.authenticate(init.body.options_json, origin, overrides);
  const res = await api(server, 'POST', '/auth/passkey/sign-in', client, { authentication_response, code: init.body.code });
  return Object.assign(res, { code: init.body.code as string, authentication_response });
}

describeWithServer('passkeys', (get) => {
  it('answers authentication options with the RP id sentinel, an empty allow list and a challenge code', async () => {
    const server = get();
    const p = await createProject(server, { passkey_enabled: true });
    const res = await api(server, 'POST', '/auth/passkey/initiate-passkey-authentication', p.client, {});
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body.options_json).sort(), ['allowCredentials', 'challenge', 'rpId', 'timeout', 'userVerification']);
    assert.deepEqual(res.body.options_json.allowCredentials, []);
    assert.equal(res.body.options_json.rpId, SENTINEL);
    assert.equal(res.body.options_json.timeout, 60000);
    assert.equal(res.body.options_json.userVerification, 'preferred');
    assert.match(res.body.options_json.challenge, /^[A-Za-z0-9_-]{40,}$/);
    assert.match(res.body.code, /^[0-9a-z]{45}$/);
  });

  it('registers a passkey for the signed-in user, who then reports passkey_auth_enabled and lists it', async () => {
    const server = get();
    const p = await createProject(server, { passkey_enabled: true });
    const user = await signedInUser(server, p);
    const init = await api(server, 'POST', '/auth/passkey/initiate-passkey-registration', user.client, {});
    assert.equal(init.status, 200, init.text);
    const options = init.body.options_json;
    assert.equal(options.rp.id, SENTINEL);
    assert.equal(options.rp.name, 'New Project');
    assert.equal(Buffer.from(options.user.id, 'base64url').toString(), user.id, 'the user handle is the user id');
    assert.equal(options.user.name, 'Passkey Person');
    assert.equal(options.authenticatorSelection.residentKey, 'required');
    assert.equal(options.timeout, 60000);
    assert.equal('hints' in options, false);

    const authenticator = new SoftAuthenticator();
    const credential = authenticator.register(options, ORIGIN);
    const registered = await api(server, 'POST', '/auth/passkey/register', user.client, { credential, code: init.body.code });
    assert.equal(registered.status, 200, registered.text);
    assert.deepEqual(registered.body, { user_handle: credential.id });

    const me = await api(server, 'GET', '/users/me', user.client);
    assert.equal(me.body.passkey_auth_enabled, true);
    const list = await api(server, 'GET', '/passkeys?user_id=me', user.client);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.items.length, 1);
    assert.equal(list.body.items[0].credential_id, credential.id);
    assert.equal(list.body.items[0].last_used_at_millis, null);
    assert.equal('public_key' in list.body.items[0], false);

    assertKnownError(
      await api(server, 'POST', '/auth/passkey/register', user.client, { credential, code: init.body.code }),
      'VERIFICATION_CODE_ALREADY_USED',
      409,
    );
    const again = await api(server, 'POST', '/auth/passkey/initiate-passkey-registration', user.client, {});
    assert.deepEqual(
      again.body.options_json.excludeCredentials.map((c: { id: string }) => c.id),
      [credential.id],
      'the registered authenticator is excluded',
    );
  });

  it('signs in with a registered passkey, issuing working tokens for its owner, and the challenge code is single use', async () => {
    const server = get();
    const p = await createProject(server, { passkey_enabled: true });
    const user = await signedInUser(server, p);
    const authenticator = new SoftAuthenticator();
    assert.equal((await register(server, user.client, authenticator)).status, 200);

    const res = await signIn(server, p.client, authenticator);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'is_new_user', 'refresh_token', 'user_id']);
    assert.equal(res.body.user_id, user.id);
    assert.equal(res.body.is_new_user, false);
    const me = await api(server, 'GET', '/users/me', { ...p.client, accessToken: res.body.access_token });
    assert.equal(me.body.id, user.id);
    const list = await api(server, 'GET', `/passkeys?user_id=${user.id}`, p.server);
    assert.notEqual(list.body.items[0].last_used_at_millis, null);

    assertKnownError(
      await api(server, 'POST', '/auth/passkey/sign-in', p.client, {
        authentication_response: res.authentication_response,
        code: res.code,
      }),
      'VERIFICATION_CODE_ALREADY_USED',
      409,
    );
    const second = await signIn(server, p.client, authenticator);
    assert.equal(second.status, 200, 'a second ceremony with a fresh challenge works (counter advanced)');
  });

  it('asks a user with TOTP on for the second factor instead of issuing tokens, then completes with /auth/mfa/sign-in', async () => {
    const server = get();
    const p = await createProject(server, { passkey_enabled: true });
    const user = await signedInUser(server, p);
    const authenticator = new SoftAuthenticator();
    assert.equal((await register(server, user.client, authenticator)).status, 200);
    const secret = randomBytes(20).toString('base64');
    assert.equal((await api(server, 'PATCH', '/users/me', user.client, { totp_secret_base64: secret })).status, 200);

    const res = await signIn(server, p.client, authenticator);
    assertKnownError(res, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);
    assert.equal('access_token' in res.body, false);
    const attempt = res.body.details.attempt_code;
    assert.match(attempt, /^[0-9a-z]{45}$/);
    const done = await api(server, 'POST', '/auth/mfa/sign-in', p.client, {
      type: 'totp',
      totp: generateTotp(secret, server.clock.now()),
      code: attempt,
    });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.user_id, user.id);
    assert.equal(done.body.is_new_user, false);
  });

  it('refuses a response signed over another challenge, for registration and for sign-in, and burns the code', async () => {
    const server = get();
    const p = await createProject(server, { passkey_enabled: true });
    const user = await signedInUser(server, p);
    const authenticator = new SoftAuthenticator();
    const wrongChallenge = Buffer.from('not the server challenge').toString('base64url');
    const badRegistration = await register(server, user.client, authenticator, ORIGIN, { challenge: wrongChallenge });
    assertKnownError(badRegistration, 'PASSKEY_REGISTRATION_FAILED', 400);
    assert.equal(badRegistration.body.error, 'Passkey registration failed because the challenge does not match');
    assert.equal((await api(server, 'GET', '/users/me', user.client)).body.passkey_auth_enabled, false);

    assert.equal((await register(server, user.client, authenticator)).status, 200);
    const bad = await signIn(server, p.client, authenticator, ORIGIN, { challenge: wrongChallenge });
    assertKnownError(bad, 'PASSKEY_AUTHENTICATION_FAILED', 400);
    assert.equal(bad.body.error, 'Passkey authentication failed because the challenge does not match');
    assertKnownError(
      await api(server, 'POST', '/auth/passkey/sign-in', p.client, {
        authentication_response: bad.authentication_response,
        code: bad.code,
      }),
      'VERIFICATION_CODE_ALREADY_USED',
      409,
    );
  });

  it('refuses an unknown credential with "Passkey not found" and a bad signature with the upstream message', async () => {
    const server = get();
    const p = await createProject(server, { passkey_enabled: true });
    const user = await signedInUser(server, p);
    const authenticator = new SoftAuthenticator();
    assert.equal((await register(server, user.client, authenticator)).status, 200);

    const stranger = new SoftAuthenticator();
    stranger.register({ user: { id: Buffer.from(user.id).toString('base64url') } }, ORIGIN);
    const unknown = await signIn(server, p.client, stranger);
    assertKnownError(unknown, 'PASSKEY_AUTHENTICATION_FAILED', 400);
    assert.equal(unknown.body.error, 'Passkey not found');

    const init = await api(server, 'POST', '/auth/passkey/initiate-passkey-authentication', p.client, {});
    const response = authenticator.authenticate(init.body.options_json, ORIGIN);
    const sig = Buffer.from(response.response.signature, 'base64url');
    sig.writeUInt8(sig.readUInt8(sig.length - 1) ^ 0x01, sig.length - 1);
    const tampered = await api(server, 'POST', '/auth/passkey/sign-in', p.client, {
      authentication_response: { ...response, response: { ...response.response, signature: sig.toString('base64url') } },
      code: init.body.code,
    });
    assertKnownError(tampered, 'PASSKEY_AUTHENTICATION_FAILED', 400);
  });

  it('answers PASSKEY_AUTHENTICATION_NOT_ENABLED on every ceremony route when the switch is off', async () => {
    const server = get();
    const p = await createProject(server, { passkey_enabled: true });
    const user = await signedInUser(server, p);
    const authenticator = new SoftAuthenticator();
    const init = await api(server, 'POST', '/auth/passkey/initiate-passkey-registration', user.client, {});
    const credential = authenticator.register(init.body.options_json, ORIGIN);
    const authInit = await api(server, 'POST', '/auth/passkey/initiate-passkey-authentication', p.client, {});

    const off = await api(server, 'PATCH', '/internal/projects/current', p.admin, { config: { passkey_enabled: false } });
    assert.equal(off.status, 200, off.text);
    const notEnabled = (res: ApiResponse) => {
      assertKnownError(res, 'PASSKEY_AUTHENTICATION_NOT_ENABLED', 400);
      assert.equal(res.body.error, 'Passkey authentication is not enabled for this project.');
    };
    notEnabled(await api(server, 'POST', '/auth/passkey/initiate-passkey-registration', user.client, {}));
    notEnabled(await api(server, 'POST', '/auth/passkey/register', user.client, { credential, code: init.body.code }));
    notEnabled(await api(server, 'POST', '/auth/passkey/initiate-passkey-authentication', p.client, {}));
    notEnabled(
      await api(server, 'POST', '/auth/passkey/sign-in', p.client, {
        authentication_response: authenticator.authenticate(authInit.body.options_json, ORIGIN),
        code: authInit.body.code,
      }),
    );
  });

  it('answers a catalogue 400, never a 5xx, for well-shaped responses with garbage inside', async () => {
    const server = get();
    const p = await createProject(server, { passkey_enabled: true });
    const user = await signedInUser(server, p);
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
        const init = await api(server, 'POST', '/auth/passkey/initiate-passkey-registration', user.client, {});
        const credential = variants(
          authenticator.register(init.body.options_json, ORIGIN),
          junk,
          init.body.options_json.challenge,
          'webauthn.create',
        )[i];
        const res = await api(server, 'POST', '/auth/passkey/register', user.client, { credential, code: init.body.code });
        assertKnownError(res, 'PASSKEY_REGISTRATION_FAILED', 400);
        if (i > 0)
          assert.equal(
            res.body.error,
            'Passkey registration failed because the verification response is invalid',
            'the attestation itself was checked',
          );
      }
    }
    authenticator.credentials.length = 0;
    assert.equal((await register(server, user.client, authenticator)).status, 200);
    for (const junk of garbage) {
      for (let i = 0; i < 3; i++) {
        const init = await api(server, 'POST', '/auth/passkey/initiate-passkey-authentication', p.client, {});
        const response = variants(
          authenticator.authenticate(init.body.options_json, ORIGIN),
          junk,
          init.body.options_json.challenge,
          'webauthn.get',
        )[i];
        const res = await api(server, 'POST', '/auth/passkey/sign-in', p.client, {
          authentication_response: response,
          code: init.body.code,
        });
        assertKnownError(res, 'PASSKEY_AUTHENTICATION_FAILED', 400);
        if (i > 0) assert.doesNotMatch(res.body.error, /challenge|origin|not found/, 'the assertion itself was checked');
      }
    }
    const missing = await api(server, 'POST', '/auth/passkey/sign-in', p.client, {
      authentication_response: { id: 'x', rawId: 'x', type: 'public-key', response: {} },
      code: 'x',
    });
    assertKnownError(missing, 'SCHEMA_ERROR', 400);
    assert.match(missing.body.error, /clientDataJSON/);
  });

  it('needs a signed-in user to register', async () => {
    const server = get();
    const p = await createProject(server, { passkey_enabled: true });
    assertKnownError(
      await api(server, 'POST', '/auth/passkey/initiate-passkey-registration', p.client, {}),
      'USER_AUTHENTICATION_REQUIRED',
    );
  });

  it('refuses a registration code issued to another user', async () => {
    const server = get();
    const p = await createProject(server, { passkey_enabled: true });
    const alice = await signedInUser(server, p);
    const bob = await signedInUser(server, p);
    const init = await api(server, 'POST', '/auth/passkey/initiate-passkey-registration', alice.client, {});
    const credential = new SoftAuthenticator().register(init.body.options_json, ORIGIN);
    const res = await api(server, 'POST', '/auth/passkey/register', bob.client, { credential, code: init.body.code });
    assertKnownError(res, 'PASSKEY_REGISTRATION_FAILED', 400);
    assert.equal((await api(server, 'GET', '/users/me', bob.client)).body.passkey_auth_enabled, false);
  });

  it('accepts origins of exact and wildcard trusted domains and refuses others when localhost is not allowed', async () => {
    const server = get();
    const p = await createProject(server, { passkey_enabled: true });
    const set = await api(server, 'PATCH', '/internal/projects/current', p.admin, {
      config: { allow_localhost: false, domains: [{ domain: 'https://app.example.com' }, { domain: 'https://*.shop.example.org' }] },
    });
    assert.equal(set.status, 200, set.text);
    const user = await signedInUser(server, p);
    const authenticator = new SoftAuthenticator();

    const local = await register(server, user.client, authenticator, ORIGIN);
    assertKnownError(local, 'PASSKEY_REGISTRATION_FAILED', 400);
    assert.equal(local.body.error, 'Passkey registration failed because the origin is not allowed');
    assertKnownError(await register(server, user.client, authenticator, 'https://evil.example.com'), 'PASSKEY_REGISTRATION_FAILED');
    assertKnownError(await register(server, user.client, authenticator, 'http://app.example.com'), 'PASSKEY_REGISTRATION_FAILED');

    assert.equal((await register(server, user.client, authenticator, 'https://app.example.com')).status, 200);
    const exact = await signIn(server, p.client, authenticator, 'https://app.example.com');
    assert.equal(exact.status, 200, exact.text);

    assert.equal((await register(server, user.client, authenticator, 'https://eu.shop.example.org')).status, 200);
    const wildcard = await signIn(server, p.client, authenticator, 'https://eu.shop.example.org');
    assert.equal(wildcard.status, 200, wildcard.text);
    const foreign = await signIn(server, p.client, authenticator, 'https://eu.shop.example.net');
    assertKnownError(foreign, 'PASSKEY_AUTHENTICATION_FAILED', 400);
    assert.equal(foreign.body.error, 'Passkey authentication failed because the origin is not allowed');
    assert.equal((await api(server, 'GET', '/passkeys?user_id=me', user.client)).body.items.length, 2);
  });

  it("accepts the server's own origin (its hosted pages) without localhost or trusted domains", async () => {
    const server = get();
    const p = await createProject(server, { passkey_enabled: true, allow_localhost: false });
    const user = await signedInUser(server, p);
    const authenticator = new SoftAuthenticator();
    const own = new URL(server.url).origin;
    assert.equal((await register(server, user.client, authenticator, own)).status, 200);
    assert.equal((await signIn(server, p.client, authenticator, own)).status, 200);
  });

  it("works for the internal project's hosted pages, on the server's own base URL", async () => {
    const server = get();
    const on = await api(server, 'PATCH', '/internal/projects/current', internal.admin, { config: { passkey_enabled: true } });
    assert.equal(on.status, 200, on.text);
    try {
      const owner = await createInternalUser(server);
      const client = { ...internal.client, accessToken: owner.accessToken };
      const authenticator = new SoftAuthenticator();
      const own = new URL(server.url).origin;
      assert.equal((await register(server, client, authenticator, own)).status, 200);
      const res = await signIn(server, internal.client, authenticator, own);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.user_id, owner.id);
    } finally {
      await api(server, 'PATCH', '/internal/projects/current', internal.admin, { config: { passkey_enabled: false } });
    }
  });

  it('refuses an assertion whose signature counter did not advance (a cloned authenticator)', async () => {
    const server = get();
    const p = await createProject(server, { passkey_enabled: true });
    const user = await signedInUser(server, p);
    const authenticator = new SoftAuthenticator();
    assert.equal((await register(server, user.client, authenticator)).status, 200);
    assert.equal((await signIn(server, p.client, authenticator)).status, 200);
    assert.equal((await signIn(server, p.client, authenticator)).status, 200);
    authenticator.credentials[0]!.counter = 0; // the clone's next signature carries counter 1 again
    const cloned = await signIn(server, p.client, authenticator);
    assertKnownError(cloned, 'PASSKEY_AUTHENTICATION_FAILED', 400);
    assert.equal(cloned.body.error, 'Passkey authentication failed because the authentication response could not be verified');
  });

  it('removes one passkey by id and all of them with passkey_auth_enabled false; refuses enabling it by hand', async () => {
    const server = get();
    const p = await createProject(server, { passkey_enabled: true });
    const user = await signedInUser(server, p);
    const phone = new SoftAuthenticator();
    const laptop = new SoftAuthenticator();
    const phoneId = (await register(server, user.client, phone)).body.user_handle;
    assert.equal((await register(server, user.client, laptop)).status, 200);
    const items = (await api(server, 'GET', '/passkeys?user_id=me', user.client)).body.items;
    assert.equal(items.length, 2);
    const phoneKey = items.find((k: { credential_id: string }) => k.credential_id === phoneId);

    const removed = await api(server, 'DELETE', `/passkeys/me/${phoneKey.id}`, user.client);
    assert.deepEqual(removed.body, { success: true });
    assert.equal((await api(server, 'DELETE', `/passkeys/me/${phoneKey.id}`, user.client)).status, 404);
    assert.equal((await api(server, 'GET', '/users/me', user.client)).body.passkey_auth_enabled, true, 'one passkey left');
    assert.equal((await signIn(server, p.client, phone)).body.error, 'Passkey not found');
    assert.equal((await signIn(server, p.client, laptop)).status, 200);

    const manual = await api(server, 'PATCH', '/users/me', user.client, { passkey_auth_enabled: true });
    assert.equal(manual.status, 400);
    assert.match(manual.text, /Cannot manually enable passkey auth/);

    const cleared = await api(server, 'PATCH', `/users/${user.id}`, p.server, { passkey_auth_enabled: false });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.passkey_auth_enabled, false);
    assert.deepEqual((await api(server, 'GET', '/passkeys?user_id=me', user.client)).body.items, []);
    assert.equal((await signIn(server, p.client, laptop)).body.error, 'Passkey not found');
  });

  it("keeps clients to their own passkeys while server and admin callers manage anyone's", async () => {
    const server = get();
    const p = await createProject(server, { passkey_enabled: true });
    const alice = await signedInUser(server, p);
    const bob = await signedInUser(server, p);
    assert.equal((await register(server, alice.client, new SoftAuthenticator())).status, 200);
    const id = (await api(server, 'GET', `/passkeys?user_id=${alice.id}`, p.admin)).body.items[0].id;
    assert.equal((await api(server, 'GET', `/passkeys?user_id=${alice.id}`, bob.client)).status, 403);
    assert.equal((await api(server, 'DELETE', `/passkeys/${alice.id}/${id}`, bob.client)).status, 403);
    assert.equal((await api(server, 'DELETE', `/passkeys/${bob.id}/${id}`, p.admin)).status, 404, 'the id must belong to the named user');
    assert.deepEqual((await api(server, 'DELETE', `/passkeys/${alice.id}/${id}`, p.admin)).body, { success: true });
    assert.equal((await api(server, 'GET', `/users/${alice.id}`, p.server)).body.passkey_auth_enabled, false);
  });

  it('keeps passkeys inside their project', async () => {
    const server = get();
    const a = await createProject(server, { passkey_enabled: true });
    const b = await createProject(server, { passkey_enabled: true });
    const user = await signedInUser(server, a);
    const authenticator = new SoftAuthenticator();
    assert.equal((await register(server, user.client, authenticator)).status, 200);
    assert.equal((await signIn(server, b.client, authenticator)).body.error, 'Passkey not found');
  });
});
