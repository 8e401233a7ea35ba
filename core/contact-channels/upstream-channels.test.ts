import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, createProject, type Caller } from '../../test/helpers/api.ts';
import type { TestServer } from '../../test/helpers/server.ts';
import { uniqueEmail } from '../../test/helpers/smtp.ts';

/**
 * Primary email and contact channels as upstream's users and contact-channels
 * handlers answer (`users/crud.tsx`, `contact-channels/crud.tsx`, `lib/request-checks.tsx`).
 */

type Channel = { value: string; is_primary: boolean; is_verified: boolean; used_for_auth: boolean };
const channelsOf = async (server: TestServer, caller: Caller, userId: string) =>
  ((await api(server, 'GET', `/contact-channels?user_id=${userId}`, caller)).body.items as Channel[])
    .map((c) => ({ value: c.value, is_primary: c.is_primary, is_verified: c.is_verified, used_for_auth: c.used_for_auth }))
    .sort((a, b) => a.value.localeCompare(b.value));

describeWithServer('primary email and contact channels as upstream', (get) => {
  it('keeps the old primary email as a non-primary channel when it changes, and demotes it when set to null', async () => {
    const server = get();
    const p = await createProject(server);
    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    const user = await api(server, 'POST', '/users', p.server, { primary_email: first, primary_email_verified: true, primary_email_auth_enabled: true });
    assert.equal(user.status, 201, user.text);

    const changed = await api(server, 'PATCH', `/users/${user.body.id}`, p.server, { primary_email: second });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.primary_email, second);
    assert.deepEqual(await channelsOf(server, p.server, user.body.id), [
      { value: first, is_primary: false, is_verified: true, used_for_auth: true },
      { value: second, is_primary: true, is_verified: false, used_for_auth: true },
    ].sort((a, b) => a.value.localeCompare(b.value)));

    const removed = await api(server, 'PATCH', `/users/${user.body.id}`, p.server, { primary_email: null });
    assert.equal(removed.status, 200, removed.text);
    assert.equal(removed.body.primary_email, null);
    assert.equal(removed.body.primary_email_auth_enabled, false, 'removing the primary email turns email auth off');
    const after = await channelsOf(server, p.server, user.body.id);
    assert.deepEqual(after.map((c) => [c.value, c.is_primary]).sort(), [[first, false], [second, false]].sort());

    // Making a non-primary channel the primary email again merges it, without a duplicate.
    assert.equal((await api(server, 'PATCH', `/users/${user.body.id}`, p.server, { primary_email: first })).status, 200);
    const merged = await channelsOf(server, p.server, user.body.id);
    assert.equal(merged.filter((c) => c.value === first).length, 1);
    assert.equal(merged.find((c) => c.value === first)!.is_primary, true);
  });

  it('refuses email auth or verified without a primary email with upstream\'s 400 texts', async () => {
    const server = get();
    const p = await createProject(server);
    const create = await api(server, 'POST', '/users', p.server, { primary_email_auth_enabled: true });
    assert.equal(create.status, 400);
    assert.equal(create.text, 'primary_email_auth_enabled cannot be true without primary_email');
    const user = await api(server, 'POST', '/users', p.server, {});
    const auth = await api(server, 'PATCH', `/users/${user.body.id}`, p.server, { primary_email_auth_enabled: true });
    assert.equal(auth.status, 400);
    assert.equal(auth.text, 'primary_email_auth_enabled cannot be true without primary_email');
    const verified = await api(server, 'PATCH', `/users/${user.body.id}`, p.server, { primary_email_verified: true });
    assert.equal(verified.status, 400);
    assert.equal(verified.text, 'primary_email_verified cannot be true without primary_email');
    // false is a no-op without an email.
    assert.equal((await api(server, 'PATCH', `/users/${user.body.id}`, p.server, { primary_email_auth_enabled: false })).status, 200);
  });

  it('answers a duplicate channel and a missing channel with upstream\'s 400s, and is_primary on create demotes the old primary', async () => {
    const server = get();
    const p = await createProject(server);
    const email = uniqueEmail('dup');
    const user = await api(server, 'POST', '/users', p.server, { primary_email: email });
    const other = uniqueEmail('other');
    const made = await api(server, 'POST', '/contact-channels', p.server, { user_id: user.body.id, type: 'email', value: other, used_for_auth: false });
    assert.equal(made.status, 201, made.text);
    for (const value of [email, other]) {
      const dup = await api(server, 'POST', '/contact-channels', p.server, { user_id: user.body.id, type: 'email', value, used_for_auth: false });
      assert.equal(dup.status, 400);
      assert.equal(dup.text, 'Contact channel already exists');
    }
    const missing = '5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11';
    const patch = await api(server, 'PATCH', `/contact-channels/${user.body.id}/${missing}`, p.server, { value: uniqueEmail() });
    assert.equal(patch.status, 400);
    assert.equal(patch.text, 'Contact channel not found');
    const del = await api(server, 'DELETE', `/contact-channels/${user.body.id}/${missing}`, p.server);
    assert.equal(del.status, 400);
    assert.equal(del.text, 'Contact channel not found');

    const third = uniqueEmail('third');
    const primary = await api(server, 'POST', '/contact-channels', p.server, { user_id: user.body.id, type: 'email', value: third, used_for_auth: true, is_primary: true });
    assert.equal(primary.status, 201, primary.text);
    assert.equal(primary.body.is_primary, true);
    const channels = await channelsOf(server, p.server, user.body.id);
    assert.deepEqual(channels.filter((c) => c.is_primary).map((c) => c.value), [third]);
    assert.equal(channels.find((c) => c.value === email)!.is_primary, false);
    assert.equal((await api(server, 'GET', `/users/${user.body.id}`, p.server)).body.primary_email, third);
  });

  it('applies email uniqueness only among auth-enabled addresses', async () => {
    const server = get();
    const p = await createProject(server);
    const shared = uniqueEmail('shared');
    const a = await api(server, 'POST', '/users', p.server, { primary_email: shared, primary_email_auth_enabled: false });
    const b = await api(server, 'POST', '/users', p.server, { primary_email: shared, primary_email_auth_enabled: false });
    assert.equal(a.status, 201, a.text);
    assert.equal(b.status, 201, b.text);
    const c = await api(server, 'POST', '/users', p.server, { primary_email: shared, primary_email_auth_enabled: true });
    assert.equal(c.status, 201, c.text);
    const d = await api(server, 'POST', '/users', p.server, { primary_email: shared, primary_email_auth_enabled: true });
    assert.equal(d.status, 409, d.text);
    assert.equal(d.body.code, 'USER_EMAIL_ALREADY_EXISTS');
  });

  it('keeps every channel\'s id through promotion and demotion, and a promoted channel keeps its verified flag', async () => {
    const server = get();
    const p = await createProject(server);
    const first = uniqueEmail('first');
    const user = (await api(server, 'POST', '/users', p.server, { primary_email: first, primary_email_auth_enabled: true })).body;
    const idOf = async (value: string) => ((await api(server, 'GET', `/contact-channels?user_id=${user.id}`, p.server)).body.items as Array<{ id: string; value: string }>)
      .find((c) => c.value === value)?.id;
    const firstId = await idOf(first);
    const second = uniqueEmail('second');
    const made = await api(server, 'POST', '/contact-channels', p.server, { user_id: user.id, type: 'email', value: second, used_for_auth: false, is_verified: true });
    assert.equal(made.status, 201, made.text);

    // PATCH /users primary_email = an existing channel: upstream promotes that channel.
    const promoted = await api(server, 'PATCH', `/users/${user.id}`, p.server, { primary_email: second });
    assert.equal(promoted.status, 200, promoted.text);
    assert.equal(promoted.body.primary_email_verified, true, 'the verified flag comes with the channel');
    assert.equal(promoted.body.primary_email_auth_enabled, true, 'sign-in follows the old primary email');
    assert.equal(await idOf(second), made.body.id);
    assert.equal(await idOf(first), firstId, 'the demoted primary keeps its id');

    // PATCH /contact-channels is_primary: true, then false.
    const back = await api(server, 'PATCH', `/contact-channels/${user.id}/${firstId}`, p.server, { is_primary: true });
    assert.equal(back.status, 200, back.text);
    assert.equal(back.body.id, firstId);
    assert.equal(back.body.is_primary, true);
    assert.equal(await idOf(second), made.body.id);
    const demoted = await api(server, 'PATCH', `/contact-channels/${user.id}/${firstId}`, p.server, { is_primary: false });
    assert.equal(demoted.status, 200, demoted.text);
    assert.deepEqual([demoted.body.id, demoted.body.is_primary], [firstId, false]);
    assert.equal((await api(server, 'GET', `/users/${user.id}`, p.server)).body.primary_email, null);

    // A new primary email is a new channel; the ids of the others stay.
    const third = uniqueEmail('third');
    const created = await api(server, 'POST', '/contact-channels', p.server, { user_id: user.id, type: 'email', value: third, used_for_auth: false, is_primary: true });
    assert.equal(created.status, 201, created.text);
    const fourth = uniqueEmail('fourth');
    assert.equal((await api(server, 'PATCH', `/users/${user.id}`, p.server, { primary_email: fourth })).status, 200);
    const ids = new Map(((await api(server, 'GET', `/contact-channels?user_id=${user.id}`, p.server)).body.items as Array<{ id: string; value: string }>).map((c) => [c.value, c.id]));
    assert.equal(ids.size, 4);
    assert.equal(new Set(ids.values()).size, 4, 'no two channels share an id');
    assert.deepEqual([ids.get(first), ids.get(second), ids.get(third)], [firstId, made.body.id, created.body.id]);
    assert.equal((await api(server, 'GET', `/contact-channels/${user.id}/${ids.get(fourth)}`, p.server)).body.is_primary, true);
  });

  it('refuses a primary email that another user signs in with through a non-primary channel', async () => {
    const server = get();
    const p = await createProject(server);
    const taken = uniqueEmail('taken');
    const owner = (await api(server, 'POST', '/users', p.server, {})).body;
    assert.equal((await api(server, 'POST', '/contact-channels', p.server, { user_id: owner.id, type: 'email', value: taken, used_for_auth: true })).status, 201);
    const other = (await api(server, 'POST', '/users', p.server, { primary_email: uniqueEmail('other'), primary_email_auth_enabled: true })).body;
    const res = await api(server, 'PATCH', `/users/${other.id}`, p.server, { primary_email: taken });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.code, 'USER_EMAIL_ALREADY_EXISTS');
    // Without email sign-in the address may be shared.
    assert.equal((await api(server, 'PATCH', `/users/${other.id}`, p.server, { primary_email: taken, primary_email_auth_enabled: false })).status, 200);
  });

  it('derives auth_with_email from a password or OTP sign-in, not from the primary email (upstream userPrismaToCrud)', async () => {
    const server = get();
    const p = await createProject(server);
    const emailOnly = await api(server, 'POST', '/users', p.server, { primary_email: uniqueEmail('e'), primary_email_auth_enabled: true });
    assert.equal(emailOnly.body.auth_with_email, false);
    const otp = await api(server, 'PATCH', `/users/${emailOnly.body.id}`, p.server, { otp_auth_enabled: true });
    assert.equal(otp.body.auth_with_email, true);
    const withPassword = await api(server, 'POST', '/users', p.server, { primary_email: uniqueEmail('pw'), primary_email_auth_enabled: true, password: 'a-long-passphrase-42' });
    assert.equal(withPassword.status, 201, withPassword.text);
    assert.equal(withPassword.body.auth_with_email, true);
    const noPassword = await api(server, 'PATCH', `/users/${withPassword.body.id}`, p.server, { password: null });
    assert.equal(noPassword.body.auth_with_email, false);
  });

  it('accepts upstream\'s legacy address syntax for stored addresses, and keeps the strict rule for sign-up', async () => {
    const server = get();
    const p = await createProject(server);
    const tag = uniqueEmail('x').split('@')[0]!;
    for (const address of [`${tag}.@example.com`, `${tag}..b@example.com`, `.${tag}@example.com`, `${tag}@localhost`, `${tag}@intranet`]) {
      const user = await api(server, 'POST', '/users', p.server, { primary_email: address });
      assert.equal(user.status, 201, `${address}: ${user.text}`);
      assert.equal(user.body.primary_email, address);
      const channel = await api(server, 'POST', '/contact-channels', p.server, { user_id: user.body.id, type: 'email', value: `other-${address}`, used_for_auth: false });
      assert.equal(channel.status, 201, `${address}: ${channel.text}`);
    }
    for (const address of ['not-an-email', 'a b@example.com', 'a@-example.com', 'a@example..com', '@example.com']) {
      const user = await api(server, 'POST', '/users', p.server, { primary_email: address });
      assert.equal(user.status, 400, address);
      assert.equal(user.body.code, 'SCHEMA_ERROR');
    }
    const signUp = await api(server, 'POST', '/auth/password/sign-up', p.client, { email: `${tag}@localhost`, password: 'a-long-passphrase-42' });
    assert.equal(signUp.status, 400, signUp.text);
    assert.equal(signUp.body.code, 'SCHEMA_ERROR');
  });

  it('answers another user\'s channels and unknown users as upstream\'s contact-channels handlers do', async () => {
    const server = get();
    const p = await createProject(server);
    const signUp = async () => {
      const res = await api(server, 'POST', '/auth/password/sign-up', p.client, { email: uniqueEmail('cc'), password: 'a-long-passphrase-42' });
      return { id: res.body.user_id as string, caller: { ...p.client, accessToken: res.body.access_token as string } };
    };
    const alice = await signUp();
    const bob = await signUp();
    const bobChannel = (await api(server, 'GET', `/contact-channels?user_id=${bob.id}`, p.server)).body.items[0].id as string;
    const cases: Array<[string, string, unknown, string]> = [
      ['GET', `/contact-channels?user_id=${bob.id}`, undefined, 'Client can only list contact channels for their own user.'],
      ['GET', `/contact-channels/${bob.id}/${bobChannel}`, undefined, 'Client can only read contact channels for their own user.'],
      ['POST', '/contact-channels', { user_id: bob.id, type: 'email', value: uniqueEmail(), used_for_auth: false }, 'Client can only create contact channels for their own user.'],
      ['PATCH', `/contact-channels/${bob.id}/${bobChannel}`, { used_for_auth: false }, 'Client can only update contact channels for their own user.'],
      ['DELETE', `/contact-channels/${bob.id}/${bobChannel}`, undefined, 'Client can only delete contact channels for their own user.'],
    ];
    for (const [method, path, body, text] of cases) {
      const res = await api(server, method, path, alice.caller, body);
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.text, text);
    }
    const nobody = '7b0e5d5e-8f0a-4c4e-9a43-2f1d1b4f9a10';
    assert.deepEqual((await api(server, 'GET', `/contact-channels?user_id=${nobody}`, p.server)).body, { items: [], is_paginated: false });
    const read = await api(server, 'GET', `/contact-channels/${nobody}/${bobChannel}`, p.server);
    assert.deepEqual([read.status, read.text], [404, 'Contact channel not found.']);
    for (const method of ['PATCH', 'DELETE']) {
      const res = await api(server, method, `/contact-channels/${nobody}/${bobChannel}`, p.server, method === 'PATCH' ? { used_for_auth: false } : undefined);
      assert.deepEqual([res.status, res.text], [400, 'Contact channel not found']);
    }
  });
});
