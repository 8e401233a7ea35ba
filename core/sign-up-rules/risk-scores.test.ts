import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Credentials } from '../index.ts';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';

// Upstream answers `risk_scores: {sign_up: {bot: 0, free_trial_abuse: 0}}` for ordinary sign-ups
// (https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/e2e/tests/backend/endpoints/api/v1/users.test.ts, internal-metrics.test.ts.snap: many
// client sign-ups from one address in one project). In-process (test/helpers/core-client.ts): the
// client address is what the host derives from the socket or a trusted proxy's X-Forwarded-For
// (that derivation is the host's to test).

const PASSWORD = 'velvet tractor 93';
let counter = 0;
const email = (local: string) => `${local}-${Date.now().toString(36)}${counter++}@example.com`;
const NONE = { sign_up: { bot: 0, free_trial_abuse: 0 } };

async function signUpScores(t: TestCore, client: Credentials, srv: Credentials, address: string, clientAddress = '127.0.0.1') {
  const signUp = await t.call<{ user_id: string }>('authPassword.signUp', client, {
    body: { email: address, password: PASSWORD },
    clientAddress,
  });
  return (await t.call<{ risk_scores: unknown }>('users.get', srv, { params: { user_id: signUp.user_id } })).risk_scores;
}

const patchBranch = (t: TestCore, admin: Credentials, value: unknown) =>
  t.call('config.updateOverride', admin, { params: { level: 'branch' }, body: { config_override_string: JSON.stringify(value) } });

describeWithCore('sign-up risk scores', (get) => {
  it('scores ordinary sign-ups 0 and 0, as upstream, however many come from this (loopback) address', async () => {
    const t = get();
    const { client, server: srv } = await createCoreProject(t);
    for (let i = 0; i < 7; i++) assert.deepEqual(await signUpScores(t, client, srv, email(`user${i}`)), NONE);
  });

  it('scores the documented signals from a public address and the same mailbox, and a project can turn the heuristic off', async () => {
    const t = get();
    const { client, server: srv, admin } = await createCoreProject(t);
    const scores = (address: string, from = '203.0.113.7') => signUpScores(t, client, srv, address, from);
    assert.deepEqual(await scores('jane.doe+one@gmail.com'), NONE);
    assert.deepEqual(await scores('janedoe+two@gmail.com'), { sign_up: { bot: 0, free_trial_abuse: 40 } }, 'the same mailbox again');
    for (let i = 0; i < 3; i++)
      assert.deepEqual(await scores(email(`o${i}`)), NONE, 'up to four earlier sign-ups from one address are ordinary');
    assert.deepEqual(await scores(email('fifth')), { sign_up: { bot: 20, free_trial_abuse: 0 } });
    assert.deepEqual(await scores(email('private'), '10.1.2.3'), NONE, 'a private address is no signal');

    await patchBranch(t, admin, { 'auth.signUpRiskHeuristic': false });
    assert.deepEqual(await scores('j.a.n.e.doe+three@gmail.com'), NONE);
    await patchBranch(t, admin, {
      'auth.signUpRiskHeuristic': true,
      'auth.signUpRules.bots': {
        enabled: true,
        displayName: 'bots',
        priority: 0,
        condition: 'riskScores.bot >= 40',
        action: { type: 'reject' },
      },
    });
    const rejected = await t.refuses(
      'authPassword.signUp',
      client,
      { body: { email: email('eighth'), password: PASSWORD }, clientAddress: '203.0.113.7' },
      'SIGN_UP_REJECTED',
    );
    assert.equal(rejected.status, 403);
  });
});
