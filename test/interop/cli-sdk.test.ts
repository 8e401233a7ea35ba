import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { SDKS, sdkApps, WITHOUT_PAGE_TRACKER } from './helpers.ts';

for (const sdk of SDKS) {
  describeWithServer(`CLI login through ${sdk.name}`, (get) => {
    it('completes promptCliLogin: the CLI polls while a signed-in browser user confirms the login code', async () => {
      const server = get();
      const { clientApp, project, keys } = await sdkApps(server, sdk.module);
      const cli = clientApp();
      const browser = clientApp();
      const signUp = await browser.signUpWithCredential({
        email: 'cli-user@example.com',
        password: 'interop password 1',
        noVerificationCallback: true,
        noRedirect: true,
      });
      assert.equal(signUp.status, 'ok', JSON.stringify(signUp));
      const browserUser = await browser.getUser({ or: 'throw' });

      let confirmUrl = '';
      let confirmation: Promise<unknown> = Promise.resolve();
      const result = await cli.promptCliLogin({
        appUrl: 'http://localhost:3000',
        waitTimeMillis: 20,
        maxAttempts: 500,
        promptLink: (url: string, loginCode: string) => {
          confirmUrl = url;
          // What the confirmation page does: the signed-in browser app confirms with its refresh token.
          confirmation = (async () => {
            const { refreshToken } = await browserUser.currentSession.getTokens();
            const confirmed = await browser._interface.cliLogin(loginCode, refreshToken, await browser._getSession());
            assert.equal(confirmed.status, 'ok', JSON.stringify(confirmed));
          })();
        },
      });
      await confirmation;
      assert.equal(result.status, 'ok', JSON.stringify(result));
      assert.match(confirmUrl, /\/handler\/cli-auth-confirm\?login_code=[0-9a-z]{45}$/);

      // The refresh token the CLI received signs it in as the browser's user.
      const signedIn = new sdk.module.StackClientApp({
        baseUrl: server.url,
        projectId: project.projectId,
        publishableClientKey: keys.publishableClientKey,
        tokenStore: { accessToken: null, refreshToken: result.data },
        ...WITHOUT_PAGE_TRACKER,
      });
      const cliUser = await signedIn.getUser();
      assert.equal(cliUser?.id, browserUser.id);
      assert.equal(cliUser?.primaryEmail, 'cli-user@example.com');
    });

    it('reports an expired CLI login as an error result', async () => {
      const server = get();
      const { clientApp } = await sdkApps(server, sdk.module);
      const cli = clientApp();
      let polls = 0;
      const result = await cli.promptCliLogin({
        appUrl: 'http://localhost:3000',
        waitTimeMillis: 10,
        maxAttempts: 50,
        promptLink: () => {
          server.clock.advance(2 * 60 * 60 * 1000 + 1);
          polls++;
        },
      });
      assert.equal(polls, 1);
      assert.equal(result.status, 'error');
      assert.equal(result.error.errorCode, 'CLI_AUTH_EXPIRED_ERROR');
    });
  });
}
