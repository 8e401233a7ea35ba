import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject } from '../helpers/api.ts';
import { normalizeEmail } from '../../core/lib/email.ts';
import { trustInput } from '../../core/storage/migrations/0021-trust-input.ts';

/**
 * Full-width and NFC/NFD variants of an existing email created separate
 * accounts. Addresses are stored and compared in one normalized form (core/lib/email.ts:
 * width mapping, lowercase, NFC); migration 0021 rewrites rows stored before.
 */

const PASSWORD = 'velvet tractor 93';
const fullWidth = (s: string) => s.replace(/[!-~]/g, (c) => (c === '@' || c === '.' ? c : String.fromCharCode(c.charCodeAt(0) + 0xfee0)));

describeWithServer('one account per address, whatever its Unicode form (issue 27 finding 10)', (get) => {
  it('normalizes width, case and composition, and nothing more', () => {
    assert.equal(normalizeEmail(' ＵｓｅＲ@Example.COM '), 'user@example.com');
    assert.equal(normalizeEmail('Jose\u0301@example.com'), 'jos\u00e9@example.com');
    assert.equal(normalizeEmail('\uFB01le@example.com'), '\uFB01le@example.com', 'a ligature is not a width form: kept');
  });

  it('answers USER_EMAIL_ALREADY_EXISTS for a full-width or NFD variant of an existing address, and signs the variant in to the same account', async () => {
    const server = get();
    const { client } = await createProject(server);
    const first = await api(server, 'POST', '/auth/password/sign-up', client, { email: 'wide-user@example.com', password: PASSWORD });
    assert.equal(first.status, 200, first.text);
    const wide = await api(server, 'POST', '/auth/password/sign-up', client, {
      email: `${fullWidth('wide-user')}@example.com`,
      password: PASSWORD,
    });
    assertKnownError(wide, 'USER_EMAIL_ALREADY_EXISTS', 409);
    const upper = await api(server, 'POST', '/auth/password/sign-up', client, {
      email: `${fullWidth('WIDE-USER')}@EXAMPLE.com`,
      password: PASSWORD,
    });
    assertKnownError(upper, 'USER_EMAIL_ALREADY_EXISTS', 409);

    const composed = await api(server, 'POST', '/auth/password/sign-up', client, { email: 'jos\u00e9@example.com', password: PASSWORD });
    assert.equal(composed.status, 200, composed.text);
    const decomposed = await api(server, 'POST', '/auth/password/sign-up', client, { email: 'jose\u0301@example.com', password: PASSWORD });
    assertKnownError(decomposed, 'USER_EMAIL_ALREADY_EXISTS', 409);

    const signIn = await api(server, 'POST', '/auth/password/sign-in', client, { email: 'JOSE\u0301@example.com', password: PASSWORD });
    assert.equal(signIn.status, 200, signIn.text);
    assert.equal(signIn.body.user_id, composed.body.user_id);
    const wideSignIn = await api(server, 'POST', '/auth/password/sign-in', client, {
      email: `${fullWidth('wide-user')}@example.com`,
      password: PASSWORD,
    });
    assert.equal(wideSignIn.body.user_id, first.body.user_id);
  });

  it('migration 0021 rewrites stored variants to the normal form, the earliest account keeping an address two variants share', async () => {
    const server = get();
    const { server: srv, client } = await createProject(server);
    const db = server.gatehouse.core.runtime.db;
    const create = async (email: string) => {
      const res = await api(server, 'POST', '/users', srv, { primary_email: email, primary_email_auth_enabled: true, password: PASSWORD });
      assert.equal(res.status, 201, res.text);
      return res.body.id as string;
    };
    // As stored before the fix: a variant of an earlier account, and an NFD address alone.
    const original = await create('legacy-one@example.com');
    const variant = await create('legacy-two@example.com');
    const alone = await create('legacy-three@example.com');
    await db
      .updateTable('users')
      .set({ primary_email: `${fullWidth('legacy-one')}@example.com` })
      .where('id', '=', variant)
      .execute();
    await db.updateTable('users').set({ primary_email: 'rene\u0301e@example.com' }).where('id', '=', alone).execute();

    await trustInput.up(db);

    const stored = async (id: string) =>
      (await db.selectFrom('users').select('primary_email').where('id', '=', id).executeTakeFirstOrThrow()).primary_email;
    assert.equal(await stored(original), 'legacy-one@example.com');
    assert.equal(await stored(variant), `${fullWidth('legacy-one')}@example.com`, 'the later variant keeps its stored text');
    assert.equal(await stored(alone), 'ren\u00e9e@example.com');
    const signIn = await api(server, 'POST', '/auth/password/sign-in', client, { email: 'rene\u0301e@example.com', password: PASSWORD });
    assert.equal(signIn.body.user_id, alone, signIn.text);
    const wide = await api(server, 'POST', '/auth/password/sign-in', client, {
      email: `${fullWidth('legacy-one')}@example.com`,
      password: PASSWORD,
    });
    assert.equal(wide.body.user_id, original, 'the normal form belongs to the earliest account');
  });
});
