import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Credentials, InvokeInput } from '../index.ts';
import { createCoreProject, createCoreUser, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { uniqueEmail } from '../../test/helpers/smtp.ts';

// "password", "12345678" and the user's own email were accepted as passwords. In-process
// (test/helpers/core-client.ts).

async function assertRefused(
  t: TestCore,
  operationId: string,
  credentials: Credentials,
  input: InvokeInput,
  reason: 'common_password' | 'predictable_password' | 'matches_email',
) {
  const error = await t.refuses(operationId, credentials, input, 'PASSWORD_REQUIREMENTS_NOT_MET');
  assert.equal(error.status, 400);
  assert.equal(error.details.reason, reason);
  assert.equal(typeof error.details.message, 'string', 'the official SDK rebuilds the error from details.message');
}

const signUp = (password: string, email = uniqueEmail()) => ({ body: { email, password } });

describeWithCore('password rules', (get) => {
  it('refuses the most common passwords at sign-up, whatever their case', async () => {
    const t = get();
    const { client } = await createCoreProject(t);
    for (const password of ['password', '12345678', 'PASSWORD123', 'iloveyou1', 'qwertyuiop']) {
      await assertRefused(t, 'authPassword.signUp', client, signUp(password), 'common_password');
    }
    assert.equal((await t.refuses('authPassword.signUp', client, signUp('1234567'), 'PASSWORD_TOO_SHORT')).status, 400);
    await t.call('authPassword.signUp', client, signUp('velvet tractor 93'));
    // Long passphrases (70 characters) are accepted.
    await t.call('authPassword.signUp', client, signUp('velvet tractor 93 and a purple umbrella over the quiet harbour lights'));
  });

  it('refuses repetitive and sequential passwords (NIST SP 800-63B-4 §3.1.1.2)', async () => {
    const t = get();
    const { client } = await createCoreProject(t);
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
      await assertRefused(t, 'authPassword.signUp', client, signUp(password), 'predictable_password');
    }
    for (const password of ['plum7 vortex', 'k9!mqz4tb2', 'Tr0ub4dor&3x']) await t.call('authPassword.signUp', client, signUp(password));
  });

  it('refuses the email address, or its part before the @, as the password', async () => {
    const t = get();
    const { client } = await createCoreProject(t);
    const email = `jane.q.public.${Date.now()}@example.com`;
    await assertRefused(t, 'authPassword.signUp', client, signUp(email.toUpperCase(), email), 'matches_email');
    await assertRefused(t, 'authPassword.signUp', client, signUp(email.split('@')[0]!, email), 'matches_email');
  });

  it('applies the same rules to password update, set and server-side updates', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const { client, server: srv } = p;
    const email = uniqueEmail();
    const s = await t.call<{ access_token: string; user_id: string }>('authPassword.signUp', client, signUp('velvet tractor 93', email));
    const me = { ...client, accessToken: s.access_token };
    await assertRefused(
      t,
      'authPassword.update',
      me,
      { body: { old_password: 'velvet tractor 93', new_password: 'password1' } },
      'common_password',
    );
    await assertRefused(
      t,
      'authPassword.update',
      me,
      { body: { old_password: 'velvet tractor 93', new_password: email } },
      'matches_email',
    );
    // Server-side creation takes the app's password as given, as upstream (imports); updates do not.
    await t.call('users.create', srv, { body: { primary_email: uniqueEmail(), password: 'baseball' } });
    await assertRefused(t, 'users.update', srv, { params: { user_id: s.user_id }, body: { password: 'sunshine' } }, 'common_password');
    const bare = await createCoreUser(t, p, { primary_email: uniqueEmail(), primary_email_auth_enabled: true });
    await assertRefused(t, 'authPassword.set', bare.client, { body: { password: 'football' } }, 'common_password');
  });
});
