import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { SDKS, errorCodeOf, sdkApps } from './helpers.ts';

// Issue 12 through the official SDK: the new refusals must reach apps as errors the SDK knows.

for (const sdk of SDKS) {
  describeWithServer(`security answers through ${sdk.name}`, (get) => {
    it('returns PASSWORD_REQUIREMENTS_NOT_MET as a typed error for a common password', async () => {
      const server = get();
      const { clientApp } = await sdkApps(server, sdk.module);
      const res = await clientApp().signUpWithCredential({
        email: 'common@example.com',
        password: 'password123',
        noVerificationCallback: true,
        noRedirect: true,
      });
      assert.equal(errorCodeOf(res), 'PASSWORD_REQUIREMENTS_NOT_MET');
    });

    it('waits out a failed-sign-in delay (429 with Retry-After) and signs in on its retry', async () => {
      const server = get();
      const { clientApp } = await sdkApps(server, sdk.module);
      const good = 'velvet tractor 93';
      assert.equal(
        (
          await clientApp().signUpWithCredential({
            email: 'slow@example.com',
            password: good,
            noVerificationCallback: true,
            noRedirect: true,
          })
        ).status,
        'ok',
      );
      for (let i = 0; i < 5; i++) {
        assert.equal(
          errorCodeOf(await clientApp().signInWithCredential({ email: 'slow@example.com', password: 'wrong password', noRedirect: true })),
          'EMAIL_PASSWORD_MISMATCH',
        );
      }
      // The next attempt is told to wait 1 s; the SDK waits and retries, by which time the delay is over.
      const pending = clientApp().signInWithCredential({ email: 'slow@example.com', password: good, noRedirect: true });
      await sleep(200);
      server.clock.advance(1000);
      const res = await pending;
      assert.equal(res.status, 'ok', JSON.stringify(res));
    });
  });
}
