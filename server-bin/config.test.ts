import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../test/helpers/suite.ts';
import { dashboardSignUpState } from '../core/dashboard-signup/index.ts';
import { DASHBOARD_SIGNUP_ENV, dashboardSignUpForcedOpen } from './config.ts';

/** The host's GATEHOUSE_DASHBOARD_SIGNUP (server-bin/config.ts) and its wiring into core (moved from core/dashboard-signup). */

it('reads GATEHOUSE_DASHBOARD_SIGNUP case-insensitively and only accepts "open"', () => {
  assert.equal(dashboardSignUpForcedOpen({ [DASHBOARD_SIGNUP_ENV]: ' OPEN ' }), true);
  assert.equal(dashboardSignUpForcedOpen({ [DASHBOARD_SIGNUP_ENV]: 'closed' }), false);
  assert.equal(dashboardSignUpForcedOpen({}), false);
});

describeWithServer('GATEHOUSE_DASHBOARD_SIGNUP reaches the core', (get) => {
  it(`keeps dashboard sign-up open while ${DASHBOARD_SIGNUP_ENV}=open, read at each check`, async () => {
    const runtime = get().gatehouse.core.runtime;
    assert.deepEqual(await dashboardSignUpState(runtime), { firstRun: true, signUpOpen: true, signUpStaysOpen: false });
    process.env[DASHBOARD_SIGNUP_ENV] = 'open';
    try {
      assert.deepEqual(await dashboardSignUpState(runtime), { firstRun: true, signUpOpen: true, signUpStaysOpen: true });
    } finally {
      delete process.env[DASHBOARD_SIGNUP_ENV];
    }
    assert.equal((await dashboardSignUpState(runtime)).signUpStaysOpen, false);
  });
});
