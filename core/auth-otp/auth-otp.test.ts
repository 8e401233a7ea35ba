import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys } from '../../test/helpers/api.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

describeWithServer('OTP and magic-link sign-in', (get) => {
  it('signs a new user in with the magic link, creating a verified user with OTP enabled', async () => {
    const server = get();
    const { client, server: srv } = await createProject(server, { magic_link_enabled: true });
    const email = uniqueEmail();
    const sent = await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email, callback_url: 'http://localhost:3000/handler/magic-link-callback' });
    assert.equal(sent.status, 200, sent.text);
    assert.equal(sent.body.nonce.length, 39);
    const mail = await smtp.waitFor(email);
    const code = codeFromEmail(mail);
    assert.match(mail.subject, /^Sign in to New Project: Your code is [0-9A-Z]{6}$/);
    assert.equal(mail.subject.slice(-6), code.slice(0, 6).toUpperCase());
    assert.match(mail.html, /^<!DOCTYPE html><html/, 'rendered through the default theme');
    assert.ok(mail.html.includes(`code=${code}`), 'the magic link is in the email');
    // The code stands alone in its own paragraph, as upstream's template renders it.
    const otp = mail.subject.slice(-6);
    assert.match(mail.html, new RegExp(`<p[^>]*>\\s*${otp}\\s*</p>`), 'the code has a paragraph of its own');
    assert.match(mail.text, new RegExp(`^\\s*${otp}\\s*$`, 'm'), 'the code is on a line of its own in the text part');
    assert.equal(code.slice(6), sent.body.nonce);

    const checked = await api(server, 'POST', '/auth/otp/sign-in/check-code', client, { code });
    assert.deepEqual(checked.body, { is_code_valid: true });
    const signIn = await api(server, 'POST', '/auth/otp/sign-in', client, { code });
    assert.equal(signIn.status, 200, signIn.text);
    assert.equal(signIn.body.is_new_user, true);
    const user = await api(server, 'GET', `/users/${signIn.body.user_id}`, srv);
    assert.equal(user.body.primary_email, email);
    assert.equal(user.body.primary_email_verified, true);
    assert.equal(user.body.otp_auth_enabled, true);
    assertKnownError(await api(server, 'POST', '/auth/otp/sign-in', client, { code }), 'VERIFICATION_CODE_ALREADY_USED', 409);
  });

  it('signs an existing user in with the OTP plus nonce and answers is_new_user false', async () => {
    const server = get();
    const { client } = await createProject(server, { magic_link_enabled: true });
    const email = uniqueEmail();
    const first = await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email, callback_url: 'http://localhost:3000/cb' });
    const firstCode = codeFromEmail(await smtp.waitFor(email));
    const created = await api(server, 'POST', '/auth/otp/sign-in', client, { code: firstCode });
    assert.equal(created.body.is_new_user, true);
    assert.ok(first.body.nonce);

    const second = await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email, callback_url: 'http://localhost:3000/cb' });
    await smtp.waitFor((m) => m.to.includes(email) && smtp.to(email).length >= 2);
    const mail = smtp.to(email)[1]!;
    const otp = mail.subject.slice(-6);
    const signIn = await api(server, 'POST', '/auth/otp/sign-in', client, { code: otp + second.body.nonce });
    assert.equal(signIn.status, 200, signIn.text);
    assert.equal(signIn.body.is_new_user, false);
    assert.equal(signIn.body.user_id, created.body.user_id);
    const me = await api(server, 'GET', '/users/me', { ...client, accessToken: signIn.body.access_token });
    assert.equal(me.body.primary_email, email);
  });

  it('answers 403 text when OTP sign-in is disabled', async () => {
    const server = get();
    const { client } = await createProject(server);
    const res = await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email: uniqueEmail(), callback_url: 'http://localhost:3000/cb' });
    assert.equal(res.status, 403);
    assert.equal(res.text, 'OTP sign-in is not enabled for this project');
  });

  it('rejects an untrusted callback URL with REDIRECT_URL_NOT_WHITELISTED', async () => {
    const server = get();
    const { client } = await createProject(server, { magic_link_enabled: true, allow_localhost: false, domains: [{ domain: 'https://*.example.com', handler_path: '/handler' }] });
    assertKnownError(await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email: uniqueEmail(), callback_url: 'http://localhost:3000/cb' }), 'REDIRECT_URL_NOT_WHITELISTED', 400);
    assertKnownError(await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email: uniqueEmail(), callback_url: 'https://evil.com/cb' }), 'REDIRECT_URL_NOT_WHITELISTED', 400);
    const ok = await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email: uniqueEmail(), callback_url: 'https://app.example.com/handler/cb' });
    assert.equal(ok.status, 200, ok.text);
    const own = await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email: uniqueEmail(), callback_url: `${server.url}/handler/magic-link-callback` });
    assert.equal(own.status, 200, own.text);
  });

  it('refuses an existing unverified email with USER_EMAIL_ALREADY_EXISTS', async () => {
    const server = get();
    const { client, server: srv } = await createProject(server, { magic_link_enabled: true });
    const email = uniqueEmail();
    await api(server, 'POST', '/users', srv, { primary_email: email, primary_email_auth_enabled: true });
    const res = await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email, callback_url: 'http://localhost:3000/cb' });
    assertKnownError(res, 'USER_EMAIL_ALREADY_EXISTS', 409);
    assert.equal(res.body.details.would_work_if_email_was_verified, true);
  });

  it('does not create a user when sign-up is disabled, and keeps the code', async () => {
    const server = get();
    const { client, admin } = await createProject(server, { magic_link_enabled: true });
    const email = uniqueEmail();
    await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email, callback_url: 'http://localhost:3000/cb' });
    const code = codeFromEmail(await smtp.waitFor(email));
    await api(server, 'PATCH', '/internal/projects/current', admin, { config: { sign_up_enabled: false } });
    assertKnownError(await api(server, 'POST', '/auth/otp/sign-in', client, { code }), 'SIGN_UP_NOT_ENABLED', 400);
    await api(server, 'PATCH', '/internal/projects/current', admin, { config: { sign_up_enabled: true } });
    assert.equal((await api(server, 'POST', '/auth/otp/sign-in', client, { code })).status, 200);
  });

  it('answers each code outcome: not found, expired, max attempts', async () => {
    const server = get();
    const { admin, projectId } = await createProject(server, { magic_link_enabled: true });
    const keys = await createProjectKeys(server, admin);
    const client = { projectId, accessType: 'client' as const, publishableClientKey: keys.publishableClientKey };
    assertKnownError(await api(server, 'POST', '/auth/otp/sign-in', client, { code: 'x'.repeat(45) }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', '/auth/otp/sign-in/check-code', client, { code: 'nope' }), 'VERIFICATION_CODE_NOT_FOUND', 404);

    const email = uniqueEmail();
    await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email, callback_url: 'http://localhost:3000/cb' });
    const code = codeFromEmail(await smtp.waitFor(email));
    server.clock.advance(7 * 24 * 3600 * 1000 + 1);
    assertKnownError(await api(server, 'POST', '/auth/otp/sign-in', client, { code }), 'VERIFICATION_CODE_EXPIRED', 400);

    const email2 = uniqueEmail();
    const sent = await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email: email2, callback_url: 'http://localhost:3000/cb' });
    const real = codeFromEmail(await smtp.waitFor(email2));
    const wrong = (real.slice(0, 6) === 'aaaaaa' ? 'bbbbbb' : 'aaaaaa') + sent.body.nonce;
    for (let i = 0; i < 20; i++) assertKnownError(await api(server, 'POST', '/auth/otp/sign-in', client, { code: wrong }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', '/auth/otp/sign-in', client, { code: real }), 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED', 400);
  });

  it('rejects bad input and calls without an access type', async () => {
    const server = get();
    const { client, projectId } = await createProject(server, { magic_link_enabled: true });
    assertKnownError(await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email: 'not-an-email', callback_url: 'http://localhost:3000/cb' }), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'POST', '/auth/otp/sign-in', client, { code: 'x', extra: 1 }), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'POST', '/auth/otp/sign-in', { projectId }, { code: 'x' }), 'ACCESS_TYPE_REQUIRED', 400);
  });
}, { smtpUrl: smtp.url });
