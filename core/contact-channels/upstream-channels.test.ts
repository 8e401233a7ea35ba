import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, createProject, type Caller } from '../../test/helpers/api.ts';
import type { TestServer } from '../../test/helpers/server.ts';
import { uniqueEmail } from '../../test/helpers/smtp.ts';

/**
 * Issue 14 item 4: primary email and contact channels as upstream's users and contact-channels
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
});
