import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, type ApiResponse } from '../../test/helpers/api.ts';
import { uniqueEmail } from '../../test/helpers/smtp.ts';

// "password", "12345678" and the user's own email were accepted as passwords.

function assertRefused(res: ApiResponse, reason: 'common_password' | 'predictable_password' | 'matches_email') {
  assertKnownError(res, 'PASSWORD_REQUIREMENTS_NOT_MET', 400);
  assert.equal(res.body.details.reason, reason);
  assert.equal(typeof res.body.details.message, 'string', 'the official SDK rebuilds the error from details.message');
}

describeWithServer('password rules (issue 12 finding 9)', (get) => {
  it('refuses the most common passwords at sign-up, whatever their case', async () => {
    const server = get();
    const { client } = await createProject(server);
    for (const password of ['password', '12345678', 'PASSWORD123', 'iloveyou1', 'qwertyuiop']) {
      assertRefused(await api(server, 'POST', '/auth/password/sign-up', client, { email: uniqueEmail(), password }), 'common_password');
    }
    assertKnownError(
      await api(server, 'POST', '/auth/password/sign-up', client, { email: uniqueEmail(), password: '1234567' }),
      'PASSWORD_TOO_SHORT',
      400,
    );
    assert.equal(
      (await api(server, 'POST', '/auth/password/sign-up', client, { email: uniqueEmail(), password: 'velvet tractor 93' })).status,
      200,
    );
    assert.equal(
      (
        await api(server, 'POST', '/auth/password/sign-up', client, {
          email: uniqueEmail(),
          password: 'velvet tractor 93 and a purple umbrella over the quiet harbour lights',
        })
      ).status,
      200,
      'long passphrases (70 characters) are accepted',
    );
  });

  it('refuses repetitive and sequential passwords (NIST SP 800-63B-4 §3.1.1.2), issue 27 finding 10', async () => {
    const server = get();
    const { client } = await createProject(server);
    // None of these is in the common-password list (qwertyui, asdfghjk and 1234abcd are, and are refused as common).
    for (const password of [
      'aaaaaaaa',
      'zzzzzzzzzzzz',
      'abababab',
      'xyzxyzxyz',
      'uiopuiop',
      'abcdefgh',
      'ABCDEFGHIJ',
      'hgfedcba',
      '23456789',
      '98765432',
      'lkjhgfds',
      'mmmmnnnn',
      'x'.repeat(69) + '7',
    ]) {
      assertRefused(
        await api(server, 'POST', '/auth/password/sign-up', client, { email: uniqueEmail(), password }),
        'predictable_password',
      );
    }
    for (const password of ['plum7 vortex', 'k9!mqz4tb2', 'Tr0ub4dor&3x']) {
      assert.equal((await api(server, 'POST', '/auth/password/sign-up', client, { email: uniqueEmail(), password })).status, 200, password);
    }
  });

  it('refuses the email address, or its part before the @, as the password', async () => {
    const server = get();
    const { client } = await createProject(server);
    const email = `jane.q.public.${Date.now()}@example.com`;
    assertRefused(await api(server, 'POST', '/auth/password/sign-up', client, { email, password: email.toUpperCase() }), 'matches_email');
    assertRefused(await api(server, 'POST', '/auth/password/sign-up', client, { email, password: email.split('@')[0] }), 'matches_email');
  });

  it('applies the same rules to password update, set and server-side updates', async () => {
    const server = get();
    const { client, server: srv } = await createProject(server);
    const email = uniqueEmail();
    const s = await api(server, 'POST', '/auth/password/sign-up', client, { email, password: 'velvet tractor 93' });
    const me = { ...client, accessToken: s.body.access_token };
    assertRefused(
      await api(server, 'POST', '/auth/password/update', me, { old_password: 'velvet tractor 93', new_password: 'password1' }),
      'common_password',
    );
    assertRefused(
      await api(server, 'POST', '/auth/password/update', me, { old_password: 'velvet tractor 93', new_password: email }),
      'matches_email',
    );
    // Server-side creation takes the app's password as given, as upstream (imports); updates do not.
    assert.equal((await api(server, 'POST', '/users', srv, { primary_email: uniqueEmail(), password: 'baseball' })).status, 201);
    assertRefused(await api(server, 'PATCH', `/users/${s.body.user_id}`, srv, { password: 'sunshine' }), 'common_password');
    const bare = await api(server, 'POST', '/users', srv, { primary_email: uniqueEmail(), primary_email_auth_enabled: true });
    const session = await api(server, 'POST', '/auth/sessions', srv, { user_id: bare.body.id });
    assertRefused(
      await api(server, 'POST', '/auth/password/set', { ...client, accessToken: session.body.access_token }, { password: 'football' }),
      'common_password',
    );
  });
});
