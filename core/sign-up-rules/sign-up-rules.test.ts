import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import type { Credentials } from '../index.ts';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { createCoreProjectKeys, keyCredentials, refusesWithStatus } from '../../test/helpers/core-fixtures-b.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';

// In-process (test/helpers/core-client.ts): the rules' decisions, traces and statistics. The OAuth
// sign-up case walks the browser redirects of the development provider, so it stays a host test
// (test/routes/sign-up-rules-oauth.test.ts).

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

const PASSWORD = 'velvet tractor 93';
let counter = 0;
const email = (local: string, domain = 'example.com') => `${local}-${Date.now().toString(36)}${counter++}@${domain}`;

/** Sets branch-level config keys, as upstream's `Project.updateConfig`. */
async function updateConfig(t: TestCore, admin: Credentials, values: Record<string, unknown>) {
  await t.call('config.updateOverride', admin, { params: { level: 'branch' }, body: { config_override_string: JSON.stringify(values) } });
}

const rule = (priority: number, condition: string, type: string, extra: Record<string, unknown> = {}) => ({
  enabled: true,
  displayName: `rule ${condition}`,
  priority,
  condition,
  action: { type, ...extra },
});

interface Tokens {
  access_token: string;
  refresh_token: string;
  user_id: string;
}

const signUp = (t: TestCore, client: Credentials, address: string) =>
  t.call<Tokens>('authPassword.signUp', client, { body: { email: address, password: PASSWORD } });

/** A password sign-up that a rule must reject: SIGN_UP_REJECTED (403), upstream's text. */
async function rejected(t: TestCore, client: Credentials, address: string, password = PASSWORD) {
  const error = await t.refuses('authPassword.signUp', client, { body: { email: address, password } }, 'SIGN_UP_REJECTED');
  assert.equal(error.status, 403);
  return error;
}

const getUser = (t: TestCore, srv: Credentials, userId: string) => t.call<any>('users.get', srv, { params: { user_id: userId } });

describeWithCore(
  'sign-up rules',
  (get) => {
    it('rejects a password sign-up a reject rule matches with SIGN_UP_REJECTED, without the rule or its message, and creates no user', async () => {
      const t = get();
      const { client, server: srv, admin } = await createCoreProject(t);
      await updateConfig(t, admin, {
        'auth.signUpRules.secret-rule': rule(0, 'email.contains("blocked")', 'reject', {
          message: 'This internal message should not be exposed',
        }),
        'auth.signUpRulesDefaultAction': 'allow',
      });
      const error = await rejected(t, client, email('blocked'));
      assert.equal(error.message, 'Your sign up was rejected. Please contact us for more information.');
      const wire = JSON.stringify({ message: error.message, details: error.details });
      assert.ok(!wire.includes('internal message') && !wire.includes('secret-rule'), wire);
      const users = await t.call<{ items: unknown[] }>('users.list', srv, { query: { limit: '100' } });
      assert.equal(users.items.length, 0, 'no user was created');
      await signUp(t, client, email('normal'));
    });

    it('evaluates rules highest priority first, ties by id, skips disabled rules, and applies the default action', async () => {
      const t = get();
      const { client, admin } = await createCoreProject(t);
      await updateConfig(t, admin, {
        'auth.signUpRules.allow-vip': rule(10, 'email.startsWith("vip")', 'allow'),
        'auth.signUpRules.zzz-allow': rule(5, 'true', 'allow'),
        'auth.signUpRules.aaa-reject': rule(5, 'emailDomain == "spam.example"', 'reject'),
        'auth.signUpRules.disabled-reject': { ...rule(100, 'true', 'reject'), enabled: false },
        'auth.signUpRulesDefaultAction': 'reject',
      });
      // The priority-10 allow wins over the priority-5 reject.
      await signUp(t, client, email('vip', 'spam.example'));
      await rejected(t, client, email('user', 'spam.example'));
      // zzz-allow decides once aaa-reject does not match.
      await signUp(t, client, email('user'));
      await updateConfig(t, admin, { 'auth.signUpRules.zzz-allow': null });
      await rejected(t, client, email('user'));
    });

    it('evaluates CEL conditions: string functions, in lists, &&, ||, negation, and a bad condition counts as not matching', async () => {
      const t = get();
      const { client, admin } = await createCoreProject(t);
      await updateConfig(t, admin, {
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
        await rejected(t, client, address);
      }
      for (const address of [email('user-bad-char'), email('user-bad+char-bad-char'), email('c', 'gmail.com')]) {
        await signUp(t, client, address);
      }
    });

    it('restricts the user a restrict rule matches: restricted_by_admin with private details naming the rule, no public reason', async () => {
      const t = get();
      const { client, server: srv, admin } = await createCoreProject(t);
      await updateConfig(t, admin, {
        'auth.signUpRules.restrict-test-domain': rule(0, 'emailDomain == "restricted-test.com"', 'restrict'),
      });
      const res = await signUp(t, client, email('user', 'restricted-test.com'));
      const user = await getUser(t, srv, res.user_id);
      assert.equal(user.restricted_by_admin, true);
      assert.equal(user.restricted_by_admin_reason, null);
      assert.equal(
        user.restricted_by_admin_private_details,
        'Restricted by sign-up rule: restrict-test-domain (rule emailDomain == "restricted-test.com")',
      );
      assert.equal(user.is_restricted, true);
      assert.deepEqual(user.restricted_reason, { type: 'restricted_by_administrator' });
      // The user's own token is a restricted one: the current user needs the allow-restricted flag.
      const refused = await t.refuses('users.getCurrent', { ...client, accessToken: res.access_token }, {}, 'RESTRICTED_USER_NOT_ALLOWED');
      assert.equal(refused.status, 403);
      const meAllowed = await t.call<any>('users.getCurrent', { ...client, accessToken: res.access_token, allowRestrictedUser: true });
      assert.deepEqual(meAllowed.restricted_reason, { type: 'restricted_by_administrator' });
      // Listing leaves restricted users out unless asked (upstream include_restricted).
      assert.equal((await t.call<{ items: unknown[] }>('users.list', srv)).items.length, 0);
      assert.equal((await t.call<{ items: unknown[] }>('users.list', srv, { query: { include_restricted: 'true' } })).items.length, 1);

      const other = await signUp(t, client, email('user', 'good-domain.com'));
      const plain = await getUser(t, srv, other.user_id);
      assert.equal(plain.restricted_by_admin, false);
      assert.equal(plain.restricted_by_admin_private_details, null);
      assert.equal(plain.is_restricted, false);

      // Lifting the restriction clears its reason and private details (upstream users/crud).
      const lift = await t.call<any>('users.update', srv, { params: { user_id: res.user_id }, body: { restricted_by_admin: false } });
      assert.equal(lift.restricted_by_admin, false);
      assert.equal(lift.restricted_by_admin_private_details, null);
      assert.equal(lift.is_restricted, false);
    });

    it('shows email_not_verified before restricted_by_administrator while the email is unverified and verification is required', async () => {
      const t = get();
      const { client, server: srv, admin } = await createCoreProject(t);
      await updateConfig(t, admin, {
        'onboarding.requireEmailVerification': true,
        'auth.signUpRules.restrict-flagged': rule(0, 'emailDomain == "flagged-domain.com"', 'restrict'),
      });
      const res = await signUp(t, client, email('user', 'flagged-domain.com'));
      let user = await getUser(t, srv, res.user_id);
      assert.equal(user.restricted_by_admin, true);
      assert.deepEqual(user.restricted_reason, { type: 'email_not_verified' });
      await t.call('users.update', srv, { params: { user_id: res.user_id }, body: { primary_email_verified: true } });
      user = await getUser(t, srv, res.user_id);
      assert.deepEqual(user.restricted_reason, { type: 'restricted_by_administrator' });
    });

    it('does not apply rules to anonymous sign-up, and applies them when an anonymous user signs up with an email', async () => {
      const t = get();
      const { client, server: srv, admin } = await createCoreProject(t);
      await updateConfig(t, admin, {
        'auth.signUpRules.block-conversion': rule(0, 'email.contains("blocked")', 'reject'),
        'auth.signUpRules.restrict-all-others': rule(-1, 'true', 'restrict'),
      });
      const anonymous = await t.call<Tokens>('anonymous.signUp', client, { body: {} });
      const asAnonymous = { ...client, accessToken: anonymous.access_token, allowAnonymousUser: true };
      await t.refuses('authPassword.signUp', asAnonymous, { body: { email: email('blocked'), password: PASSWORD } }, 'SIGN_UP_REJECTED');
      const still = await getUser(t, srv, anonymous.user_id);
      assert.equal(still.is_anonymous, true, 'the rejected upgrade left the anonymous user as it was');
      const upgraded = await t.call<Tokens>('authPassword.signUp', asAnonymous, { body: { email: email('allowed'), password: PASSWORD } });
      assert.equal(upgraded.user_id, anonymous.user_id, 'upgraded in place');
      const user = await getUser(t, srv, anonymous.user_id);
      assert.equal(user.is_anonymous, false);
      assert.equal(user.restricted_by_admin, true, 'the restrict rule applied to the upgrade');
    });

    it('applies the rules to OTP / magic-link sign-up (authMethod otp) and leaves the code unused when it rejects', async () => {
      const t = get();
      const { client, admin } = await createCoreProject(t, { magic_link_enabled: true });
      await updateConfig(t, admin, {
        'auth.signUpRules.no-otp': rule(0, 'authMethod == "otp" && emailDomain == "otp-blocked.test"', 'reject'),
      });
      const blocked = uniqueEmail().replace(/@.*/, '@otp-blocked.test');
      await t.call('authOtp.sendSignInCode', client, { body: { email: blocked, callback_url: 'http://localhost:3000/cb' } });
      const code = codeFromEmail(await smtp.waitFor(blocked));
      await t.refuses('authOtp.signIn', client, { body: { code } }, 'SIGN_UP_REJECTED');
      await updateConfig(t, admin, { 'auth.signUpRules.no-otp': null });
      const retry = await t.call<{ is_new_user: boolean }>('authOtp.signIn', client, { body: { code } });
      assert.equal(retry.is_new_user, true, 'the code was not spent by the rejected attempt');
      // A password sign-up on that domain is not an OTP sign-up.
      await updateConfig(t, admin, { 'auth.signUpRules.no-otp': rule(0, 'authMethod == "otp"', 'reject') });
      await signUp(t, client, email('pw', 'otp-blocked.test'));
    });

    it('refuses an invalid rule in the config (unknown action type) with a bad request naming the allowed actions', async () => {
      const t = get();
      const { admin } = await createCoreProject(t);
      const value = JSON.stringify({ 'auth.signUpRules.bad': rule(0, 'true', 'block') });
      await refusesWithStatus(
        t,
        'config.updateOverride',
        admin,
        { params: { level: 'branch' }, body: { config_override_string: value } },
        'bad-request',
        'The key "auth.signUpRules.bad" has an invalid value: must be one of allow, reject, restrict, log.',
      );
    });

    it('keeps a catastrophic regular expression in a condition from stalling the server', async () => {
      const t = get();
      const { client, admin } = await createCoreProject(t);
      await updateConfig(t, admin, { 'auth.signUpRules.redos': rule(0, 'email.matches("^(a+)+$")', 'reject') });
      // Without the linear-engine fallback this match backtracks about 2^40 times.
      await signUp(t, client, `${'a'.repeat(40)}!@example.com`);
    });

    it("signUpRules.test answers upstream's bodies: default action, evaluation trace, risk scores and country codes", async () => {
      const t = get();
      const { admin, client } = await createCoreProject(t);
      const test = (body: Record<string, unknown>) => t.call<any>('signUpRules.test', admin, { body });
      const base = {
        email: 'user@example.com',
        country_code: null,
        auth_method: 'password',
        oauth_provider: null,
        risk_scores: { bot: 0, free_trial_abuse: 0 },
      };
      assert.deepEqual(await test(base), {
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

      await updateConfig(t, admin, {
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
      assert.deepEqual(traced.evaluations, [
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
      assert.deepEqual(traced.outcome, {
        should_allow: false,
        decision: 'reject',
        decision_rule_id: 'block-oauth',
        restricted_because_of_rule_id: null,
      });
      assert.equal(traced.context.oauth_provider, 'google');

      await updateConfig(t, admin, {
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
      assert.deepEqual(risky.context.risk_scores, { bot: 90, free_trial_abuse: 10 });
      assert.deepEqual(risky.outcome, {
        should_allow: false,
        decision: 'reject',
        decision_rule_id: 'block-high-bot-score',
        restricted_because_of_rule_id: null,
      });
      const canada = await test({ ...base, email: 'country@example.com', country_code: 'ca' });
      assert.equal(canada.context.country_code, 'CA');
      assert.deepEqual(canada.outcome, {
        should_allow: true,
        decision: 'allow',
        decision_rule_id: 'allow-na',
        restricted_because_of_rule_id: null,
      });
      const france = await test({ ...base, country_code: 'fr' });
      assert.deepEqual(france.outcome, {
        should_allow: false,
        decision: 'default-reject',
        decision_rule_id: null,
        restricted_because_of_rule_id: null,
      });
      const brokenEvaluation = france.evaluations.find((e: { rule_id: string }) => e.rule_id === 'broken');
      assert.equal(brokenEvaluation.status, 'error');
      assert.match(brokenEvaluation.error, /^Failed to evaluate CEL expression/);
      // Without a country, a tagged example.com address gives one outside production (upstream's test rule).
      const tagged = await test({ ...base, email: 'someone+us@example.com' });
      assert.equal(tagged.context.country_code, 'US');

      await t.refuses('signUpRules.test', admin, { body: { ...base, auth_method: 'carrier-pigeon' } }, 'SCHEMA_ERROR');
      await t.refuses('signUpRules.test', admin, { body: { ...base, risk_scores: { bot: 101, free_trial_abuse: 0 } } }, 'SCHEMA_ERROR');
      const denied = await t.refuses('signUpRules.test', client, { body: base }, 'INSUFFICIENT_ACCESS_TYPE');
      assert.equal(denied.status, 401);
    });

    it('signUpRules.stats counts triggers per rule and hour, rejected sign-ups included, for admins only', async () => {
      const t = get();
      const created = await createCoreProject(t);
      // Keys rather than the owner's access token: the clock moves on by hours below.
      const { client, server: srv, admin } = keyCredentials(created.projectId, await createCoreProjectKeys(t, created.admin));
      for (const caller of [client, srv]) {
        const denied = await t.refuses('signUpRules.stats', caller, {}, 'INSUFFICIENT_ACCESS_TYPE');
        assert.deepEqual(denied.details, { actual_access_type: caller.accessType, allowed_access_types: ['admin'] });
      }
      assert.deepEqual(await t.call('signUpRules.stats', admin), {
        analytics_hours: 48,
        rule_triggers: [],
        total_triggers: 0,
        triggers_by_action: { allow: 0, reject: 0, restrict: 0, log: 0 },
      });

      await updateConfig(t, admin, {
        'auth.signUpRules.test-rule': { enabled: true, displayName: 'Test Rule', priority: 1, condition: 'true', action: { type: 'log' } },
        'auth.signUpRules.reject-blocked': {
          enabled: true,
          priority: 2,
          condition: 'email.contains("blocked")',
          action: { type: 'reject' },
        },
      });
      await signUp(t, client, email('counted'));
      await rejected(t, client, email('blocked'));
      t.clock.advance(3 * 3_600_000);
      await signUp(t, client, email('later'));

      const stats = await t.call<any>('signUpRules.stats', admin);
      const now = t.clock.now();
      const hour = (hoursAgo: number) => new Date(Math.floor(now / 3_600_000) * 3_600_000 - hoursAgo * 3_600_000).toISOString();
      assert.deepEqual(
        { ...stats, rule_triggers: stats.rule_triggers.map((r: Record<string, unknown>) => ({ ...r, hourly_counts: '<stripped>' })) },
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
      const hourly = stats.rule_triggers[1].hourly_counts as Array<{ hour: string; count: number }>;
      assert.equal(hourly.length, 48);
      assert.equal(hourly[0]!.hour, hour(47));
      assert.deepEqual(hourly.at(-1), { hour: hour(0), count: 1 });
      assert.deepEqual(hourly.at(-4), { hour: hour(3), count: 1 });
      assert.equal(
        hourly.reduce((sum, h) => sum + h.count, 0),
        2,
      );

      // Two days later the old hours leave the window but stay in all_time_count.
      t.clock.advance(48 * 3_600_000);
      const later = await t.call<any>('signUpRules.stats', admin);
      assert.equal(later.total_triggers, 0);
      assert.deepEqual(
        later.rule_triggers.map((r: Record<string, unknown>) => [r.rule_id, r.total_count, r.all_time_count]),
        [
          ['reject-blocked', 0, 1],
          ['test-rule', 0, 2],
        ],
      );
    });
  },
  { smtpUrl: smtp.url },
);
