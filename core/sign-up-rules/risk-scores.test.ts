import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, type Caller } from '../../test/helpers/api.ts';
import { startSecondProcess } from '../../test/helpers/second-process.ts';
import type { TestServer } from '../../test/helpers/server.ts';

// Upstream answers `risk_scores: {sign_up: {bot: 0, free_trial_abuse: 0}}` for ordinary sign-ups
// (https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/e2e/tests/backend/endpoints/api/v1/users.test.ts, internal-metrics.test.ts.snap: many
// client sign-ups from one address in one project).

const PASSWORD = 'velvet tractor 93';
let counter = 0;
const email = (local: string) => `${local}-${Date.now().toString(36)}${counter++}@example.com`;
const NONE = { sign_up: { bot: 0, free_trial_abuse: 0 } };

async function signUpScores(view: TestServer, client: Caller, srv: Caller, address: string) {
  const res = await api(view, 'POST', '/auth/password/sign-up', client, { email: address, password: PASSWORD });
  assert.equal(res.status, 200, res.text);
  return (await api(view, 'GET', `/users/${res.body.user_id}`, srv)).body.risk_scores;
}

describeWithServer('sign-up risk scores (issue 34 item 5)', (get) => {
  it('scores ordinary sign-ups 0 and 0, as upstream, however many come from this (loopback) address', async () => {
    const server = get();
    const { client, server: srv } = await createProject(server);
    for (let i = 0; i < 7; i++) assert.deepEqual(await signUpScores(server, client, srv, email(`user${i}`)), NONE);
  });

  it('scores the documented signals from a public address and the same mailbox, and a project can turn the heuristic off', async () => {
    const server = get();
    const proxied = await startSecondProcess(server, { trustedProxyHops: 1 });
    after(() => proxied.close());
    const { client, server: srv, admin } = await createProject(server);
    const from = (address: string) => ({ ...client, headers: { 'x-forwarded-for': address } });
    const pub = from('203.0.113.7');
    assert.deepEqual(await signUpScores(proxied.view, pub, srv, 'jane.doe+one@gmail.com'), NONE);
    assert.deepEqual(
      await signUpScores(proxied.view, pub, srv, 'janedoe+two@gmail.com'),
      { sign_up: { bot: 0, free_trial_abuse: 40 } },
      'the same mailbox again',
    );
    for (let i = 0; i < 3; i++)
      assert.deepEqual(
        await signUpScores(proxied.view, pub, srv, email(`o${i}`)),
        NONE,
        'up to four earlier sign-ups from one address are ordinary',
      );
    assert.deepEqual(await signUpScores(proxied.view, pub, srv, email('fifth')), { sign_up: { bot: 20, free_trial_abuse: 0 } });
    assert.deepEqual(await signUpScores(proxied.view, from('10.1.2.3'), srv, email('private')), NONE, 'a private address is no signal');

    const off = await api(server, 'PATCH', '/internal/config/override/branch', admin, {
      config_override_string: JSON.stringify({ 'auth.signUpRiskHeuristic': false }),
    });
    assert.equal(off.status, 200, off.text);
    assert.deepEqual(await signUpScores(proxied.view, pub, srv, 'j.a.n.e.doe+three@gmail.com'), NONE);
    const on = await api(server, 'PATCH', '/internal/config/override/branch', admin, {
      config_override_string: JSON.stringify({
        'auth.signUpRiskHeuristic': true,
        'auth.signUpRules.bots': {
          enabled: true,
          displayName: 'bots',
          priority: 0,
          condition: 'riskScores.bot >= 40',
          action: { type: 'reject' },
        },
      }),
    });
    assert.equal(on.status, 200, on.text);
    assertKnownError(
      await api(proxied.view, 'POST', '/auth/password/sign-up', pub, { email: email('eighth'), password: PASSWORD }),
      'SIGN_UP_REJECTED',
      403,
    );
  });
});
