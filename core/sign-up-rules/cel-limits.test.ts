import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { upsertOverride } from '../config/queries.ts';
import type { Credentials } from '../index.ts';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { CEL_LIMITS, conditionProblem } from '../lib/cel-bounds.ts';

/**
 * A sign-up rule's condition stalled the process (six nested
 * `.all()`: seconds per sign-up; a backreference regex: 2.5–13 s). Conditions are bounded when
 * saved, `matches` runs on RE2, and every evaluation runs on a worker under a deadline, which
 * also covers rules stored before the bound.
 */

const list = (n: number) => `[${Array.from({ length: n }, (_, i) => i).join(', ')}]`;
const nestedAll = (depth: number, n: number) => {
  let body = 'true';
  for (let i = depth; i > 0; i--) body = `${list(n)}.all(v${i}, ${body})`;
  return body;
};

describe('sign-up condition bound at save time', () => {
  it("accepts realistic rules, upstream's examples, and (as upstream) conditions that do not parse", () => {
    const domains = Array.from({ length: 400 }, (_, i) => `"disposable-${i}.example"`).join(', ');
    for (const condition of [
      'email.contains("@")',
      'emailDomain == "example.com"',
      'countryCode in ["US", "CA"]',
      'riskScores.bot > 10 && riskScores.freeTrialAbuse < 90',
      'authMethod == "oauth" && oauthProvider == "discord"',
      'email.matches("^[0-9]+@")',
      'email.matches("(?i)^[a-z0-9._%+-]+@(mail|post)\\\\.example$")',
      `emailDomain in [${domains}]`,
      '["a.example", "b.example"].exists(d, emailDomain.endsWith(d))',
      'unknownVariable == 1',
      'email.split("@").all(part, size(part) > 0)',
      'nope(',
    ])
      assert.equal(conditionProblem(condition), null, condition);
  });

  it('refuses nested comprehension macros, too many macros, long literals and a high estimated cost, naming the limit', () => {
    assert.match(conditionProblem(nestedAll(6, 5))!, /nested more than 2 deep/);
    assert.match(conditionProblem(nestedAll(3, 2))!, /nested more than 2 deep/);
    assert.match(conditionProblem(Array.from({ length: 9 }, () => '[1].all(x, true)').join(' && '))!, /more than 8 comprehension macros/);
    assert.match(conditionProblem(`email == "${'x'.repeat(CEL_LIMITS.maxStringLiteral + 1)}"`)!, /at most 1000 are accepted/);
    assert.match(conditionProblem(`${list(500)}.all(a, ${list(500)}.all(b, a != b))`)!, /estimated cost is \d+ steps; at most 100000/);
    assert.match(conditionProblem('('.repeat(40) + 'true' + ')'.repeat(40))!, /Exceeded maxDepth \(24\)/);
    assert.match(conditionProblem(`emailDomain in ${list(501)}`)!, /Exceeded maxListElements \(500\)/);
  });

  it('refuses matches() patterns RE2 cannot run (backreferences, lookaround) and patterns that are not literals', () => {
    assert.match(conditionProblem('email.matches("^((a+)+)\\\\2b$")')!, /cannot run in linear time/);
    assert.match(conditionProblem('email.matches("^(?=a)")')!, /cannot run in linear time/);
    assert.match(conditionProblem('email.matches(emailDomain)')!, /must be a string literal/);
  });
});

const updateConfig = (t: TestCore, admin: Credentials, values: Record<string, unknown>) =>
  t.core.invoke('config.updateOverride', admin, { params: { level: 'branch' }, body: { config_override_string: JSON.stringify(values) } });
const rule = (condition: string) => ({ enabled: true, displayName: 'r', priority: 0, condition, action: { type: 'reject' } });

/** The bad-request message of a refused save (checked to be a plain 400 status error). */
async function refusedSave(t: TestCore, admin: Credentials, values: Record<string, unknown>): Promise<string> {
  const error = await updateConfig(t, admin, values).then(
    () => assert.fail('the condition was saved'),
    (e: unknown) => e as { kind?: string; message: string },
  );
  assert.equal(error.kind, 'bad-request', String(error));
  return error.message;
}

describeWithCore('sign-up conditions cannot stall the server', (get) => {
  it('refuses to save six nested .all() or a backreference regex, with a 400 naming the limit', async () => {
    const t = get();
    const { admin } = await createCoreProject(t);
    assert.match(
      await refusedSave(t, admin, { 'auth.signUpRules.slow': rule(nestedAll(6, 5)) }),
      /auth\.signUpRules\.slow.*nested more than 2 deep/,
    );
    assert.match(
      await refusedSave(t, admin, { 'auth.signUpRules.redos': rule('email.matches("^((a+)+)\\\\2b$")') }),
      /cannot run in linear time/,
    );
    await updateConfig(t, admin, { 'auth.signUpRules.ok': rule('email.matches("^(a+)+b$")') });
  });

  it('stops a rule stored before the bound at the deadline and skips it, as a rule that fails to evaluate', async () => {
    const t = get();
    const { admin, client, projectId } = await createCoreProject(t);
    // Written past the save-time check, as a rule saved by an earlier version: about 6.4 × 10^7
    // iterations (far past the 250 ms deadline on any machine), and a backreference pattern.
    await upsertOverride(t.core.runtime.db, {
      projectId,
      branchId: 'main',
      level: 'branch',
      now: Date.now(),
      config: { 'auth.signUpRules.slow': rule(nestedAll(6, 20)), 'auth.signUpRules.redos': rule('email.matches("^((a+)+)\\\\2b$")') },
    });
    const trace = await t.call<{ evaluations: Array<{ rule_id: string; status: string; error: string }>; outcome: { decision: string } }>(
      'signUpRules.test',
      admin,
      { body: { email: `${'a'.repeat(30)}@example.com`, country_code: null, auth_method: 'password', oauth_provider: null } },
    );
    const byId = Object.fromEntries(trace.evaluations.map((e) => [e.rule_id, e]));
    assert.equal(byId.slow!.status, 'error');
    assert.match(byId.slow!.error, /took longer than 250 ms and was stopped/);
    assert.equal(byId.redos!.status, 'error');
    assert.match(byId.redos!.error, /Invalid regular expression/);
    assert.equal(trace.outcome.decision, 'default-allow');
    await t.call('authPassword.signUp', client, { body: { email: `${'a'.repeat(30)}@example.com`, password: 'velvet tractor 93' } });
  });
});
