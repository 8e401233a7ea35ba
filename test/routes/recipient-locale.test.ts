import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject, type Caller } from '../helpers/api.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../helpers/smtp.ts';

/**
 * Emails in the recipient's language (issue 28 finding 8): the language chosen on the hosted pages
 * at sign-up is stored on the user (server-side only), the built-in emails to that user are
 * written in it, and users who chose none get the project's `emails.defaultLocale`. Delivered
 * through a real SMTP receiver. Over HTTP: the host reads the language from `x-gatehouse-locale`
 * (the hosted pages) or `Accept-Language`.
 */

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

/** The hosted pages send their chosen language on every request. */
const inGerman = (caller: Caller): Caller => ({ ...caller, headers: { ...(caller.headers ?? {}), 'x-gatehouse-locale': 'de' } });

describeWithServer(
  'emails in the recipient language (issue 28)',
  (get) => {
    it('sends a German verification email to a user who signed up on the German hosted pages, and German sign-in codes later', async () => {
      const server = get();
      const { client } = await createProject(server, { magic_link_enabled: true });
      const email = uniqueEmail('de');
      const signUp = await api(server, 'POST', '/auth/password/sign-up', inGerman(client), {
        email,
        password: 'a-Long-and-unusual-Passw0rd',
        verification_callback_url: 'http://localhost:3000/handler/email-verification',
      });
      assert.equal(signUp.status, 200, signUp.text);
      const verification = await smtp.waitFor(email);
      assert.equal(verification.subject, 'Bestätigen Sie Ihre E-Mail-Adresse bei New Project');
      assert.match(verification.html, /E-Mail-Adresse bestätigen/);
      const verified = await api(server, 'POST', '/contact-channels/verify', client, { code: codeFromEmail(verification) });
      assert.equal(verified.status, 200, verified.text);

      // Later requests carry no language (another device, an English browser): the stored one wins.
      const asked = await api(
        server,
        'POST',
        '/auth/otp/send-sign-in-code',
        { ...client, headers: { 'accept-language': 'en-US' } },
        {
          email,
          callback_url: 'http://localhost:3000/handler/magic-link-callback',
        },
      );
      assert.equal(asked.status, 200, asked.text);
      const code = await smtp.waitFor((m) => m.to.includes(email) && m.subject.startsWith('Anmeldung'));
      assert.match(code.subject, /^Anmeldung bei New Project: Ihr Code lautet [A-Z0-9]{6}$/);
      assert.match(code.text, /Ihr Einmalcode für die Anmeldung/);
    });

    it("uses the project's default language for users who chose none, and a user's own choice over it", async () => {
      const server = get();
      const { admin, client } = await createProject(server, { magic_link_enabled: true });
      const set = await api(server, 'PATCH', '/internal/config/override/environment', admin, {
        config_override_string: JSON.stringify({ 'emails.defaultLocale': 'de' }),
      });
      assert.equal(set.status, 200, set.text);
      const email = uniqueEmail('default');
      const signUp = await api(server, 'POST', '/auth/password/sign-up', client, {
        email,
        password: 'a-Long-and-unusual-Passw0rd',
        verification_callback_url: 'http://localhost:3000/handler/email-verification',
      });
      assert.equal(signUp.status, 200, signUp.text);
      assert.match((await smtp.waitFor(email)).subject, /^Bestätigen Sie/);

      // The user picks English in account settings (PATCH /users/me `locale`, Gatehouse extension).
      const me = { ...client, accessToken: signUp.body.access_token as string };
      const patched = await api(server, 'PATCH', '/users/me', me, { locale: 'en' });
      assert.equal(patched.status, 200, patched.text);
      assert.equal('locale' in patched.body, false, 'the language stays server-side: upstream users have no such field');
      const again = await api(server, 'POST', '/contact-channels/send-verification-code', me, {
        email,
        callback_url: 'http://localhost:3000/handler/email-verification',
      });
      assert.equal(again.status, 200, again.text);
      await smtp.waitFor((m) => m.to.includes(email) && m.subject.startsWith('Verify your email'));

      const bad = await api(server, 'PATCH', '/users/me', me, { locale: 'not a language' });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.code, 'SCHEMA_ERROR');
    });
  },
  { smtpUrl: smtp.url },
);
