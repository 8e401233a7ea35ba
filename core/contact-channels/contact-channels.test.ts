import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, type Caller } from '../../test/helpers/api.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';
import type { TestServer } from '../../test/helpers/server.ts';

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

async function signUp(server: TestServer, client: Caller, email: string, callback?: string) {
  const res = await api(server, 'POST', '/auth/password/sign-up', client, { email, password: 'correct horse battery', ...(callback ? { verification_callback_url: callback } : {}) });
  assert.equal(res.status, 200, res.text);
  return { userId: res.body.user_id as string, me: { ...client, accessToken: res.body.access_token as string } };
}

describeWithServer('email verification and contact channels', (get) => {
  it('sends a verification email on sign-up and verifies the primary email with its code', async () => {
    const server = get();
    const { client } = await createProject(server);
    const email = uniqueEmail();
    const { me } = await signUp(server, client, email, 'http://localhost:3000/handler/email-verification');
    const mail = await smtp.waitFor(email);
    assert.equal(mail.subject, 'Verify your email at New Project');
    const code = codeFromEmail(mail);
    assert.equal((await api(server, 'GET', '/users/me', me)).body.primary_email_verified, false);
    assert.deepEqual((await api(server, 'POST', '/contact-channels/verify/check-code', client, { code })).body, { is_code_valid: true });
    const verified = await api(server, 'POST', '/contact-channels/verify', client, { code });
    assert.deepEqual(verified.body, { success: true });
    assert.equal((await api(server, 'GET', '/users/me', me)).body.primary_email_verified, true);
    assertKnownError(await api(server, 'POST', '/contact-channels/verify', client, { code }), 'VERIFICATION_CODE_ALREADY_USED', 409);
  });

  it('rejects an untrusted verification callback at sign-up', async () => {
    const server = get();
    const { client } = await createProject(server, { allow_localhost: false });
    const res = await api(server, 'POST', '/auth/password/sign-up', client, { email: uniqueEmail(), password: 'correct horse battery', verification_callback_url: 'http://localhost:3000/x' });
    assertKnownError(res, 'REDIRECT_URL_NOT_WHITELISTED', 400);
  });

  it('re-sends verification through the legacy route with its errors', async () => {
    const server = get();
    const { client } = await createProject(server);
    const email = uniqueEmail();
    const { me } = await signUp(server, client, email);
    const cb = 'http://localhost:3000/handler/email-verification';
    assertKnownError(await api(server, 'POST', '/contact-channels/send-verification-code', me, { email: uniqueEmail(), callback_url: cb }), 'EMAIL_IS_NOT_PRIMARY_EMAIL', 400);
    // Upstream declares auth.user in the request schema.
    const noUser = await api(server, 'POST', '/contact-channels/send-verification-code', client, { email, callback_url: cb });
    assertKnownError(noUser, 'SCHEMA_ERROR', 400);
    assert.deepEqual(noUser.body, { code: 'SCHEMA_ERROR', details: { message: 'Request validation failed on POST /api/v1/contact-channels/send-verification-code:\n  - auth.user must be defined' }, error: 'Request validation failed on POST /api/v1/contact-channels/send-verification-code:\n  - auth.user must be defined' });
    assertKnownError(await api(server, 'POST', '/contact-channels/send-verification-code', me, { email, callback_url: 'https://evil.com/' }), 'REDIRECT_URL_NOT_WHITELISTED', 400);
    const sent = await api(server, 'POST', '/contact-channels/send-verification-code', me, { email: email.toUpperCase(), callback_url: cb });
    assert.deepEqual(sent.body, { success: true });
    await api(server, 'POST', '/contact-channels/verify', client, { code: codeFromEmail(await smtp.waitFor(email)) });
    assertKnownError(await api(server, 'POST', '/contact-channels/send-verification-code', me, { email, callback_url: cb }), 'EMAIL_ALREADY_VERIFIED', 409);
  });

  it('lists the primary email as a channel and manages other channels', async () => {
    const server = get();
    const { client, server: srv } = await createProject(server);
    const email = uniqueEmail();
    const { me, userId } = await signUp(server, client, email);
    const list = await api(server, 'GET', '/contact-channels?user_id=me', me);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.items.length, 1);
    const primary = list.body.items[0];
    assert.deepEqual({ ...primary, id: undefined }, { id: undefined, user_id: userId, value: email, type: 'email', used_for_auth: true, is_verified: false, is_primary: true });

    const second = uniqueEmail('second');
    const created = await api(server, 'POST', '/contact-channels', me, { user_id: 'me', value: second, type: 'email', used_for_auth: false });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.is_primary, false);
    const got = await api(server, 'GET', `/contact-channels/me/${created.body.id}`, me);
    assert.equal(got.body.value, second);

    const sent = await api(server, 'POST', `/contact-channels/me/${created.body.id}/send-verification-code`, me, { callback_url: 'http://localhost:3000/v' });
    assert.deepEqual(sent.body, { success: true });
    await api(server, 'POST', '/contact-channels/verify', client, { code: codeFromEmail(await smtp.waitFor(second)) });
    assert.equal((await api(server, 'GET', `/contact-channels/me/${created.body.id}`, me)).body.is_verified, true);
    assertKnownError(await api(server, 'POST', `/contact-channels/me/${created.body.id}/send-verification-code`, me, { callback_url: 'http://localhost:3000/v' }), 'EMAIL_ALREADY_VERIFIED', 409);

    // Promote the second channel: the users row follows, the old primary stays as a channel (with its id).
    const promoted = await api(server, 'PATCH', `/contact-channels/me/${created.body.id}`, me, { is_primary: true, used_for_auth: true });
    assert.equal(promoted.status, 200, promoted.text);
    assert.equal(promoted.body.is_primary, true);
    assert.equal(promoted.body.id, created.body.id, 'a promoted channel keeps its id (upstream)');
    const user = await api(server, 'GET', `/users/${userId}`, srv);
    assert.equal(user.body.primary_email, second);
    assert.equal(user.body.primary_email_verified, true);
    const after2 = await api(server, 'GET', '/contact-channels?user_id=me', me);
    assert.deepEqual(after2.body.items.map((c: { value: string; is_primary: boolean }) => [c.value, c.is_primary]), [[second, true], [email, false]]);

    // Server may set is_verified; clients may not.
    assertKnownError(await api(server, 'POST', '/contact-channels', me, { user_id: 'me', value: uniqueEmail(), type: 'email', used_for_auth: false, is_verified: true }), 'SCHEMA_ERROR', 400);
    const byServer = await api(server, 'POST', '/contact-channels', srv, { user_id: userId, value: uniqueEmail(), type: 'email', used_for_auth: false, is_verified: true });
    assert.equal(byServer.body.is_verified, true);

    const del = await api(server, 'DELETE', `/contact-channels/me/${byServer.body.id}`, me);
    assert.deepEqual(del.body, { success: true });
    assert.equal((await api(server, 'GET', `/contact-channels/me/${byServer.body.id}`, me)).status, 404);
    await api(server, 'DELETE', `/contact-channels/me/${created.body.id}`, me);
    assert.equal((await api(server, 'GET', `/users/${userId}`, srv)).body.primary_email, null);
  });

  it('refuses an auth channel already used by someone else', async () => {
    const server = get();
    const { client } = await createProject(server);
    const taken = uniqueEmail();
    await signUp(server, client, taken);
    const { me } = await signUp(server, client, uniqueEmail());
    const res = await api(server, 'POST', '/contact-channels', me, { user_id: 'me', value: taken, type: 'email', used_for_auth: true });
    assertKnownError(res, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', 409);
    const ok = await api(server, 'POST', '/contact-channels', me, { user_id: 'me', value: taken, type: 'email', used_for_auth: false });
    assert.equal(ok.status, 201);
    assertKnownError(await api(server, 'PATCH', `/contact-channels/me/${ok.body.id}`, me, { used_for_auth: true }), 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', 409);
  });

  it('denies clients other users and callers without a user', async () => {
    const server = get();
    const { client, server: srv, admin } = await createProject(server);
    const a = await signUp(server, client, uniqueEmail());
    const b = await signUp(server, client, uniqueEmail());
    assert.equal((await api(server, 'GET', `/contact-channels?user_id=${b.userId}`, a.me)).status, 403);
    assertKnownError(await api(server, 'GET', '/contact-channels?user_id=me', client), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    assert.equal((await api(server, 'GET', `/contact-channels?user_id=${b.userId}`, srv)).status, 200);
    assert.equal((await api(server, 'GET', `/contact-channels?user_id=${b.userId}`, admin)).status, 200);
    // Upstream filters channels by user without looking the user up: an unknown user has none.
    assert.deepEqual((await api(server, 'GET', '/contact-channels?user_id=7b0e5d5e-8f0a-4c4e-9a43-2f1d1b4f9a10', srv)).body, { items: [], is_paginated: false });
    assertKnownError(await api(server, 'GET', '/contact-channels?user_id=not-a-uuid', srv), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'POST', '/contact-channels/verify', client, { code: 'x'.repeat(45) }), 'VERIFICATION_CODE_NOT_FOUND', 404);
  });
}, { smtpUrl: smtp.url });
