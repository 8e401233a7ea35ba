import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys, type Caller } from '../../test/helpers/api.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';
import { authorizeUrl, exchangeCode, followCallback, newAppFlow, APP_ERROR_URL } from '../../test/helpers/oauth-flow.ts';
import type { TestServer } from '../../test/helpers/server.ts';

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

const PASSWORD = 'velvet tractor 93';
let counter = 0;
const email = (local: string, domain = 'example.com') => `${local}-${Date.now().toString(36)}${counter++}@${domain}`;

/** Sets branch-level config keys, as upstream's `Project.updateConfig`. */
async function updateConfig(server: TestServer, admin: Caller, values: Record<string, unknown>) {
  const res = await api(server, 'PATCH', '/internal/config/override/branch', admin, { config_override_string: JSON.stringify(values) });
  assert.equal(res.status, 200, res.text);
}

const rule = (priority: number, condition: string, type: string, extra: Record<string, unknown> = {}) => ({
  enabled: true,
  displayName: `rule ${condition}`,
  priority,
  condition,
  action: { type, ...extra },
});

const signUp = (server: TestServer, client: Caller, address: string, accessToken?: string) =>
  api(server, 'POST', '/auth/password/sign-up', accessToken ? { ...client, accessToken } : client, { email: address, password: PASSWORD });

describeWithServer(
  'sign-up rules (issue 12)',
  (get) => {
    it('rejects a password sign-up a reject rule matches with SIGN_UP_REJECTED, without the rule or its message, and creates no user', async () => {
      const server = get();
      const { client, server: srv, admin } = await createProject(server);
      await updateConfig(server, admin, {
        'auth.signUpRules.secret-rule': rule(0, 'email.contains("blocked")', 'reject', {
          message: 'This internal message should not be exposed',
        }),
        'auth.signUpRulesDefaultAction': 'allow',
      });
      const blocked = email('blocked');
      const res = await signUp(server, client, blocked);
      assertKnownError(res, 'SIGN_UP_REJECTED', 403);
      assert.equal(res.body.error, 'Your sign up was rejected. Please contact us for more information.');
      assert.ok(!res.text.includes('internal message') && !res.text.includes('secret-rule'));
      const users = await api(server, 'GET', '/users?limit=100', srv);
      assert.equal(users.body.items.length, 0, 'no user was created');
      assert.equal((await signUp(server, client, email('normal'))).status, 200);
    });

    it('evaluates rules highest priority first, ties by id, skips disabled rules, and applies the default action', async () => {
      const server = get();
      const { client, admin } = await createProject(server);
      await updateConfig(server, admin, {
        'auth.signUpRules.allow-vip': rule(10, 'email.startsWith("vip")', 'allow'),
        'auth.signUpRules.zzz-allow': rule(5, 'true', 'allow'),
        'auth.signUpRules.aaa-reject': rule(5, 'emailDomain == "spam.example"', 'reject'),
        'auth.signUpRules.disabled-reject': { ...rule(100, 'true', 'reject'), enabled: false },
        'auth.signUpRulesDefaultAction': 'reject',
      });
      assert.equal(
        (await signUp(server, client, email('vip', 'spam.example'))).status,
        200,
        'the priority-10 allow wins over the priority-5 reject',
      );
      assertKnownError(await signUp(server, client, email('user', 'spam.example')), 'SIGN_UP_REJECTED', 403);
      assert.equal((await signUp(server, client, email('user'))).status, 200, 'zzz-allow decides once aaa-reject does not match');
      await updateConfig(server, admin, { 'auth.signUpRules.zzz-allow': null });
      assertKnownError(await signUp(server, client, email('user')), 'SIGN_UP_REJECTED', 403);
    });

    it('evaluates CEL conditions: string functions, in lists, &&, ||, negation, and a bad condition counts as not matching', async () => {
      const server = get();
      const { client, admin } = await createProject(server);
      await updateConfig(server, admin, {
        'auth.signUpRules.collision': rule(5, 'email.contains("bad+char") && !email.contains("bad-char")', 'reject'),
        'auth.signUpRules.numeric': rule(4, 'email.matches("^[0-9]+@")', 'reject'),
        'auth.signUpRules.domains': rule(3, 'emailDomain in ["tempmail.com", "throwaway.io"] || email.endsWith("@fake.test")', 'reject'),
        'auth.signUpRules.methods': rule(2, '!(authMethod in ["password", "otp"])', 'reject'),
        'auth.signUpRules.broken': rule(1, 'unknownVariable == 1', 'reject'),
      });
      for (const address of [
        email('user-bad+char'),
        `${Date.now()}${counter++}@example.com`,
        email('a', 'tempmail.com'),
        email('b', 'fake.test'),
      ]) {
        assertKnownError(await signUp(server, client, address), 'SIGN_UP_REJECTED', 403);
      }
      for (const address of [email('user-bad-char'), email('user-bad+char-bad-char'), email('c', 'gmail.com')]) {
        assert.equal((await signUp(server, client, address)).status, 200, address);
      }
    });

    it('restricts the user a restrict rule matches: restricted_by_admin with private details naming the rule, no public reason', async () => {
      const server = get();
      const { client, server: srv, admin } = await createProject(server);
      await updateConfig(server, admin, {
        'auth.signUpRules.restrict-test-domain': rule(0, 'emailDomain == "restricted-test.com"', 'restrict'),
      });
      const res = await signUp(server, client, email('user', 'restricted-test.com'));
      assert.equal(res.status, 200, res.text);
      const user = await api(server, 'GET', `/users/${res.body.user_id}`, srv);
      assert.equal(user.body.restricted_by_admin, true);
      assert.equal(user.body.restricted_by_admin_reason, null);
      assert.equal(
        user.body.restricted_by_admin_private_details,
        'Restricted by sign-up rule: restrict-test-domain (rule emailDomain == "restricted-test.com")',
      );
      assert.equal(user.body.is_restricted, true);
      assert.deepEqual(user.body.restricted_reason, { type: 'restricted_by_administrator' });
      // The user's own token is a restricted one: /users/me needs the allow-restricted header.
      const me = await api(server, 'GET', '/users/me', { ...client, accessToken: res.body.access_token });
      assertKnownError(me, 'RESTRICTED_USER_NOT_ALLOWED', 403);
      const meAllowed = await api(server, 'GET', '/users/me', {
        ...client,
        accessToken: res.body.access_token,
        headers: { 'x-stack-allow-restricted-user': 'true' },
      });
      assert.equal(meAllowed.status, 200, meAllowed.text);
      assert.deepEqual(meAllowed.body.restricted_reason, { type: 'restricted_by_administrator' });
      // Listing leaves restricted users out unless asked (upstream include_restricted).
      assert.equal((await api(server, 'GET', '/users', srv)).body.items.length, 0);
      assert.equal((await api(server, 'GET', '/users?include_restricted=true', srv)).body.items.length, 1);

      const other = await signUp(server, client, email('user', 'good-domain.com'));
      const plain = await api(server, 'GET', `/users/${other.body.user_id}`, srv);
      assert.equal(plain.body.restricted_by_admin, false);
      assert.equal(plain.body.restricted_by_admin_private_details, null);
      assert.equal(plain.body.is_restricted, false);

      // Lifting the restriction clears its reason and private details (upstream users/crud).
      const lift = await api(server, 'PATCH', `/users/${res.body.user_id}`, srv, { restricted_by_admin: false });
      assert.equal(lift.status, 200, lift.text);
      assert.equal(lift.body.restricted_by_admin, false);
      assert.equal(lift.body.restricted_by_admin_private_details, null);
      assert.equal(lift.body.is_restricted, false);
    });

    it('shows email_not_verified before restricted_by_administrator while the email is unverified and verification is required', async () => {
      const server = get();
      const { client, server: srv, admin } = await createProject(server);
      await updateConfig(server, admin, {
        'onboarding.requireEmailVerification': true,
        'auth.signUpRules.restrict-flagged': rule(0, 'emailDomain == "flagged-domain.com"', 'restrict'),
      });
      const res = await signUp(server, client, email('user', 'flagged-domain.com'));
      assert.equal(res.status, 200, res.text);
      let user = await api(server, 'GET', `/users/${res.body.user_id}`, srv);
      assert.equal(user.body.restricted_by_admin, true);
      assert.deepEqual(user.body.restricted_reason, { type: 'email_not_verified' });
      await api(server, 'PATCH', `/users/${res.body.user_id}`, srv, { primary_email_verified: true });
      user = await api(server, 'GET', `/users/${res.body.user_id}`, srv);
      assert.deepEqual(user.body.restricted_reason, { type: 'restricted_by_administrator' });
    });

    it('does not apply rules to anonymous sign-up, and applies them when an anonymous user signs up with an email', async () => {
      const server = get();
      const { client, server: srv, admin } = await createProject(server);
      await updateConfig(server, admin, {
        'auth.signUpRules.block-conversion': rule(0, 'email.contains("blocked")', 'reject'),
        'auth.signUpRules.restrict-all-others': rule(-1, 'true', 'restrict'),
      });
      const anonymous = await api(server, 'POST', '/auth/anonymous/sign-up', client, {});
      assert.equal(anonymous.status, 200, anonymous.text);
      const anonymousHeaders = { 'x-stack-allow-anonymous-user': 'true' };
      const rejected = await api(
        server,
        'POST',
        '/auth/password/sign-up',
        { ...client, accessToken: anonymous.body.access_token, headers: anonymousHeaders },
        { email: email('blocked'), password: PASSWORD },
      );
      assertKnownError(rejected, 'SIGN_UP_REJECTED', 403);
      const still = await api(server, 'GET', `/users/${anonymous.body.user_id}`, srv);
      assert.equal(still.body.is_anonymous, true, 'the rejected upgrade left the anonymous user as it was');
      const upgraded = await api(
        server,
        'POST',
        '/auth/password/sign-up',
        { ...client, accessToken: anonymous.body.access_token, headers: anonymousHeaders },
        { email: email('allowed'), password: PASSWORD },
      );
      assert.equal(upgraded.status, 200, upgraded.text);
      assert.equal(upgraded.body.user_id, anonymous.body.user_id, 'upgraded in place');
      const user = await api(server, 'GET', `/users/${anonymous.body.user_id}`, srv);
      assert.equal(user.body.is_anonymous, false);
      assert.equal(user.body.restricted_by_admin, true, 'the restrict rule applied to the upgrade');
    });

    it('applies the rules to OTP / magic-link sign-up (authMethod otp) and leaves the code unused when it rejects', async () => {
      const server = get();
      const { client, admin } = await createProject(server, { magic_link_enabled: true });
      await updateConfig(server, admin, {
        'auth.signUpRules.no-otp': rule(0, 'authMethod == "otp" && emailDomain == "otp-blocked.test"', 'reject'),
      });
      const blocked = uniqueEmail().replace(/@.*/, '@otp-blocked.test');
      await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email: blocked, callback_url: 'http://localhost:3000/cb' });
      const code = codeFromEmail(await smtp.waitFor(blocked));
      assertKnownError(await api(server, 'POST', '/auth/otp/sign-in', client, { code }), 'SIGN_UP_REJECTED', 403);
      await updateConfig(server, admin, { 'auth.signUpRules.no-otp': null });
      const retry = await api(server, 'POST', '/auth/otp/sign-in', client, { code });
      assert.equal(retry.status, 200, 'the code was not spent by the rejected attempt');
      assert.equal(retry.body.is_new_user, true);
      // A password sign-up on that domain is not an OTP sign-up.
      await updateConfig(server, admin, { 'auth.signUpRules.no-otp': rule(0, 'authMethod == "otp"', 'reject') });
      assert.equal((await signUp(server, client, email('pw', 'otp-blocked.test'))).status, 200);
    });

    it('applies the rules to OAuth sign-up (authMethod oauth, oauthProvider) and sends the browser to the error URL', async () => {
      const server = get();
      const { projectId, admin } = await createProject(server, {
        oauth_providers: [
          { id: 'github', type: 'shared' },
          { id: 'spotify', type: 'shared' },
        ],
      });
      await updateConfig(server, admin, {
        'auth.signUpRules.block-github': rule(0, 'authMethod == "oauth" && oauthProvider == "github"', 'reject'),
      });
      const viaProvider = async (providerId: string, address: string) => {
        const flow = newAppFlow();
        const started = await fetch(authorizeUrl(server, providerId, projectId, flow, { stack_response_mode: 'json' }));
        const page = new URL(((await started.json()) as { location: string }).location);
        const form = new URLSearchParams(page.searchParams);
        form.set('email', address);
        const picked = await fetch(new URL(page.pathname, page), { method: 'POST', body: form, redirect: 'manual' });
        return { flow, back: await followCallback(picked.headers.get('location')!) };
      };
      const refused = await viaProvider('github', email('gh'));
      assert.equal(`${refused.back.origin}${refused.back.pathname}`, APP_ERROR_URL);
      assert.equal(refused.back.searchParams.get('errorCode'), 'SIGN_UP_REJECTED');
      const allowed = await viaProvider('spotify', email('sp'));
      const tokens = await exchangeCode(server, projectId, allowed.back.searchParams.get('code')!, allowed.flow.verifier);
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
    });

    it('refuses an invalid rule in the config (unknown action type)', async () => {
      const server = get();
      const { admin } = await createProject(server);
      const res = await api(server, 'PATCH', '/internal/config/override/branch', admin, {
        config_override_string: JSON.stringify({ 'auth.signUpRules.bad': rule(0, 'true', 'block') }),
      });
      assert.equal(res.status, 400, res.text);
      assert.match(res.text, /must be one of allow, reject, restrict, log/);
    });

    it('keeps a catastrophic regular expression in a condition from stalling the server', async () => {
      const server = get();
      const { client, admin } = await createProject(server);
      await updateConfig(server, admin, { 'auth.signUpRules.redos': rule(0, 'email.matches("^(a+)+$")', 'reject') });
      // Without the linear-engine fallback this match backtracks about 2^40 times.
      const res = await signUp(server, client, `${'a'.repeat(40)}!@example.com`);
      assert.equal(res.status, 200, res.text);
    });

    it("POST /internal/sign-up-rules-test answers upstream's bodies: default action, evaluation trace, risk scores and country codes", async () => {
      const server = get();
      const { admin, client } = await createProject(server);
      const test = (body: Record<string, unknown>) => api(server, 'POST', '/internal/sign-up-rules-test', admin, body);
      const base = {
        email: 'user@example.com',
        country_code: null,
        auth_method: 'password',
        oauth_provider: null,
        risk_scores: { bot: 0, free_trial_abuse: 0 },
      };
      const empty = await test(base);
      assert.equal(empty.status, 200, empty.text);
      assert.deepEqual(empty.body, {
        context: {
          email: 'user@example.com',
          email_domain: 'example.com',
          country_code: '',
          auth_method: 'password',
          oauth_provider: '',
          turnstile_result: 'invalid',
          risk_scores: { bot: 0, free_trial_abuse: 0 },
        },
        evaluations: [],
        outcome: { should_allow: true, decision: 'default-allow', decision_rule_id: null, restricted_because_of_rule_id: null },
      });

      await updateConfig(server, admin, {
        'auth.signUpRules.log-first': {
          enabled: true,
          displayName: 'Log first',
          priority: 2,
          condition: 'emailDomain == "example.com"',
          action: { type: 'log' },
        },
        'auth.signUpRules.block-oauth': {
          enabled: true,
          displayName: 'Block OAuth',
          priority: 1,
          condition: 'authMethod == "oauth"',
          action: { type: 'reject', message: 'OAuth blocked' },
        },
        'auth.signUpRules.off': { enabled: false, priority: 3, condition: 'true', action: { type: 'reject' } },
        'auth.signUpRulesDefaultAction': 'allow',
      });
      const traced = await test({ ...base, email: 'test@example.com', auth_method: 'oauth', oauth_provider: 'google' });
      assert.deepEqual(traced.body.evaluations, [
        { rule_id: 'off', display_name: '', enabled: false, condition: 'true', status: 'disabled', action: { type: 'reject' } },
        {
          rule_id: 'log-first',
          display_name: 'Log first',
          enabled: true,
          condition: 'emailDomain == "example.com"',
          status: 'matched',
          action: { type: 'log' },
        },
        {
          rule_id: 'block-oauth',
          display_name: 'Block OAuth',
          enabled: true,
          condition: 'authMethod == "oauth"',
          status: 'matched',
          action: { type: 'reject', message: 'OAuth blocked' },
        },
      ]);
      assert.deepEqual(traced.body.outcome, {
        should_allow: false,
        decision: 'reject',
        decision_rule_id: 'block-oauth',
        restricted_because_of_rule_id: null,
      });
      assert.equal(traced.body.context.oauth_provider, 'google');

      await updateConfig(server, admin, {
        'auth.signUpRules.log-first': null,
        'auth.signUpRules.block-oauth': null,
        'auth.signUpRules.off': null,
        'auth.signUpRules.block-high-bot-score': {
          enabled: true,
          displayName: 'Block high bot score',
          priority: 1,
          condition: 'riskScores.bot >= 80',
          action: { type: 'reject', message: 'High bot risk' },
        },
        'auth.signUpRules.allow-na': {
          enabled: true,
          displayName: 'Allow North America',
          priority: 0,
          condition: 'countryCode in ["US", "CA"]',
          action: { type: 'allow' },
        },
        'auth.signUpRules.broken': { enabled: true, priority: -1, condition: 'nope(', action: { type: 'restrict' } },
        'auth.signUpRulesDefaultAction': 'reject',
      });
      const risky = await test({ ...base, email: 'risk@example.com', risk_scores: { bot: 90, free_trial_abuse: 10 } });
      assert.deepEqual(risky.body.context.risk_scores, { bot: 90, free_trial_abuse: 10 });
      assert.deepEqual(risky.body.outcome, {
        should_allow: false,
        decision: 'reject',
        decision_rule_id: 'block-high-bot-score',
        restricted_because_of_rule_id: null,
      });
      const canada = await test({ ...base, email: 'country@example.com', country_code: 'ca' });
      assert.equal(canada.body.context.country_code, 'CA');
      assert.deepEqual(canada.body.outcome, {
        should_allow: true,
        decision: 'allow',
        decision_rule_id: 'allow-na',
        restricted_because_of_rule_id: null,
      });
      const france = await test({ ...base, country_code: 'fr' });
      assert.deepEqual(france.body.outcome, {
        should_allow: false,
        decision: 'default-reject',
        decision_rule_id: null,
        restricted_because_of_rule_id: null,
      });
      const brokenEvaluation = france.body.evaluations.find((e: { rule_id: string }) => e.rule_id === 'broken');
      assert.equal(brokenEvaluation.status, 'error');
      assert.match(brokenEvaluation.error, /^Failed to evaluate CEL expression/);
      // Without a country, a tagged example.com address gives one outside production (upstream's test rule).
      const tagged = await test({ ...base, email: 'someone+us@example.com' });
      assert.equal(tagged.body.context.country_code, 'US');

      assertKnownError(await test({ ...base, auth_method: 'carrier-pigeon' }), 'SCHEMA_ERROR', 400);
      assertKnownError(await test({ ...base, risk_scores: { bot: 101, free_trial_abuse: 0 } }), 'SCHEMA_ERROR', 400);
      assertKnownError(await api(server, 'POST', '/internal/sign-up-rules-test', client, base), 'INSUFFICIENT_ACCESS_TYPE', 401);
    });

    it('GET /internal/sign-up-rules-stats counts triggers per rule and hour, rejected sign-ups included, for admins only', async () => {
      const server = get();
      const created = await createProject(server);
      const keys = await createProjectKeys(server, created.admin);
      // Keys rather than the owner's access token: the clock moves on by hours below.
      const projectId = created.projectId;
      const admin: Caller = { projectId, accessType: 'admin', superSecretAdminKey: keys.superSecretAdminKey };
      const srv: Caller = { projectId, accessType: 'server', secretServerKey: keys.secretServerKey };
      const client: Caller = { projectId, accessType: 'client', publishableClientKey: keys.publishableClientKey };
      for (const caller of [client, srv]) {
        const denied = await api(server, 'GET', '/internal/sign-up-rules-stats', caller);
        assertKnownError(denied, 'INSUFFICIENT_ACCESS_TYPE', 401);
        assert.deepEqual(denied.body.details, { actual_access_type: caller.accessType, allowed_access_types: ['admin'] });
      }
      const empty = await api(server, 'GET', '/internal/sign-up-rules-stats', admin);
      assert.deepEqual(empty.body, {
        analytics_hours: 48,
        rule_triggers: [],
        total_triggers: 0,
        triggers_by_action: { allow: 0, reject: 0, restrict: 0, log: 0 },
      });

      await updateConfig(server, admin, {
        'auth.signUpRules.test-rule': { enabled: true, displayName: 'Test Rule', priority: 1, condition: 'true', action: { type: 'log' } },
        'auth.signUpRules.reject-blocked': {
          enabled: true,
          priority: 2,
          condition: 'email.contains("blocked")',
          action: { type: 'reject' },
        },
      });
      assert.equal((await signUp(server, client, email('counted'))).status, 200);
      assertKnownError(await signUp(server, client, email('blocked')), 'SIGN_UP_REJECTED', 403);
      server.clock.advance(3 * 3_600_000);
      assert.equal((await signUp(server, client, email('later'))).status, 200);

      const stats = await api(server, 'GET', '/internal/sign-up-rules-stats', admin);
      assert.equal(stats.status, 200, stats.text);
      const now = server.clock.now();
      const hour = (hoursAgo: number) => new Date(Math.floor(now / 3_600_000) * 3_600_000 - hoursAgo * 3_600_000).toISOString();
      assert.deepEqual(
        {
          ...stats.body,
          rule_triggers: stats.body.rule_triggers.map((r: Record<string, unknown>) => ({ ...r, hourly_counts: '<stripped>' })),
        },
        {
          analytics_hours: 48,
          rule_triggers: [
            { rule_id: 'reject-blocked', total_count: 1, all_time_count: 1, hourly_counts: '<stripped>' },
            { rule_id: 'test-rule', total_count: 2, all_time_count: 2, hourly_counts: '<stripped>' },
          ],
          total_triggers: 3,
          triggers_by_action: { allow: 0, reject: 1, restrict: 0, log: 2 },
        },
      );
      const hourly = stats.body.rule_triggers[1].hourly_counts as Array<{ hour: string; count: number }>;
      assert.equal(hourly.length, 48);
      assert.equal(hourly[0]!.hour, hour(47));
      assert.deepEqual(hourly.at(-1), { hour: hour(0), count: 1 });
      assert.deepEqual(hourly.at(-4), { hour: hour(3), count: 1 });
      assert.equal(
        hourly.reduce((sum, h) => sum + h.count, 0),
        2,
      );

      // Two days later the old hours leave the window but stay in all_time_count.
      server.clock.advance(48 * 3_600_000);
      const later = await api(server, 'GET', '/internal/sign-up-rules-stats', admin);
      assert.equal(later.body.total_triggers, 0);
      assert.deepEqual(
        later.body.rule_triggers.map((r: Record<string, unknown>) => [r.rule_id, r.total_count, r.all_time_count]),
        [
          ['reject-blocked', 0, 1],
          ['test-rule', 0, 2],
        ],
      );
    });
  },
  { smtpUrl: smtp.url },
);
