import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../helpers/smtp.ts';
import { SDKS, errorCodeOf, sdkApps } from './helpers.ts';

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

const PASSWORD = 'interop password 1';

for (const sdk of SDKS) {
  describeWithServer(
    `email flows through ${sdk.name}`,
    (get) => {
      it('signs in with sendMagicLinkEmail + signInWithMagicLink, reading the code from SMTP', async () => {
        const server = get();
        const { clientApp, serverApp } = await sdkApps(server, sdk.module, { magic_link_enabled: true });
        const app = clientApp();
        const email = uniqueEmail('magic');
        const sent = await app.sendMagicLinkEmail(email, { callbackUrl: 'http://localhost:3000/handler/magic-link-callback' });
        assert.equal(sent.status, 'ok', JSON.stringify(sent));
        assert.equal(sent.data.nonce.length, 39);
        const code = codeFromEmail(await smtp.waitFor(email));
        const signIn = await app.signInWithMagicLink(code, { noRedirect: true });
        assert.equal(signIn.status, 'ok', JSON.stringify(signIn));
        const user = await app.getUser();
        assert.equal(user?.primaryEmail, email);
        assert.equal(user?.primaryEmailVerified, true);
        assert.equal((await serverApp.getUser(user!.id))?.otpAuthEnabled, true);

        const again = await clientApp().signInWithMagicLink(code, { noRedirect: true });
        assert.equal(errorCodeOf(again), 'VERIFICATION_CODE_ALREADY_USED');
      });

      it('signs in with the OTP shown in the email plus the nonce', async () => {
        const server = get();
        const { clientApp } = await sdkApps(server, sdk.module, { magic_link_enabled: true });
        const app = clientApp();
        const email = uniqueEmail('otp');
        const sent = await app.sendMagicLinkEmail(email, { callbackUrl: 'http://localhost:3000/handler/magic-link-callback' });
        const otp = (await smtp.waitFor(email)).subject.slice(-6);
        const signIn = await app.signInWithMagicLink(otp + sent.data.nonce, { noRedirect: true });
        assert.equal(signIn.status, 'ok', JSON.stringify(signIn));
        assert.equal((await app.getUser())?.primaryEmail, email);
      });

      it('reports a disabled magic link and an untrusted callback as errors', async () => {
        const server = get();
        const { clientApp } = await sdkApps(server, sdk.module, { magic_link_enabled: true, allow_localhost: false });
        const res = await clientApp().sendMagicLinkEmail(uniqueEmail(), {
          callbackUrl: 'http://localhost:3000/handler/magic-link-callback',
        });
        assert.equal(errorCodeOf(res), 'REDIRECT_URL_NOT_WHITELISTED');
      });

      it('verifies the primary email with user.sendVerificationEmail + verifyEmail', async () => {
        const server = get();
        const { clientApp } = await sdkApps(server, sdk.module);
        const app = clientApp();
        const email = uniqueEmail('verify');
        assert.equal(
          (await app.signUpWithCredential({ email, password: PASSWORD, noVerificationCallback: true, noRedirect: true })).status,
          'ok',
        );
        const user = await app.getUser();
        assert.equal(user?.primaryEmailVerified, false);
        await user!.sendVerificationEmail({ callbackUrl: 'http://localhost:3000/handler/email-verification' });
        const code = codeFromEmail(await smtp.waitFor(email));
        const verified = await app.verifyEmail(code);
        assert.equal(verified.status, 'ok', JSON.stringify(verified));
        const fresh = await clientApp();
        await fresh.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
        assert.equal((await fresh.getUser())?.primaryEmailVerified, true);
      });

      it('resets a forgotten password with sendForgotPasswordEmail + resetPassword', async () => {
        const server = get();
        const { clientApp } = await sdkApps(server, sdk.module);
        const app = clientApp();
        const email = uniqueEmail('reset');
        await app.signUpWithCredential({ email, password: PASSWORD, noVerificationCallback: true, noRedirect: true });
        const sent = await clientApp().sendForgotPasswordEmail(email, { callbackUrl: 'http://localhost:3000/handler/password-reset' });
        assert.equal(sent.status, 'ok', JSON.stringify(sent));
        const code = codeFromEmail(await smtp.waitFor(email));
        assert.equal((await clientApp().verifyPasswordResetCode(code)).status, 'ok');
        assert.equal((await clientApp().resetPassword({ code, password: 'brand new password' })).status, 'ok');
        const signIn = await clientApp().signInWithCredential({ email, password: 'brand new password', noRedirect: true });
        assert.equal(signIn.status, 'ok', JSON.stringify(signIn));
      });
    },
    { smtpUrl: smtp.url },
  );
}
