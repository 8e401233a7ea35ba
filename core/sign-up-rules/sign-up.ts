import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import type { Runtime } from '../runtime.ts';
import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { KnownError } from '../errors/index.ts';
import { loadConfigLayers, renderLayers } from '../config/index.ts';
import { finishUserCreation, insertNewUser, upgradeAnonymousUser, type NewUserFields, type UserRow } from '../users/index.ts';
import {
  createSignUpRuleContext,
  evaluateSignUpRules,
  orderedRules,
  type SignUpAuthMethod,
  type SignUpRule,
  type SignUpRulesTrace,
} from './rules.ts';
import { checkSignInAttempt } from './sign-in-attempt.ts';
import { NO_RISK, signUpCountryCode, signUpFacts, signUpRiskScores, type SignUpFacts } from './risk.ts';
import { incrementTriggerCounts, insertSignUpFacts } from './queries.ts';
import { assertSignUpChallengePassed, NO_BOT_CHALLENGE, type BotChallengeAssessment } from '../bot-challenge/index.ts';

const HOUR = 3_600_000;

/** A project branch's rules in evaluation order and its default action (`auth.signUpRules*`). */
export interface ProjectSignUpRules {
  rules: Array<[string, SignUpRule]>;
  defaultAction: 'allow' | 'reject';
  /** `auth.signUpRiskHeuristic` (default true): false leaves every risk score at 0. */
  riskHeuristic: boolean;
}

/** Reads the rendered `auth.signUpRules`, `auth.signUpRulesDefaultAction` and `auth.signUpRiskHeuristic` of a project branch. */
export async function loadSignUpRules(db: Kysely<Database>, projectId: string, branchId: string, now: number): Promise<ProjectSignUpRules> {
  const auth = renderLayers(await loadConfigLayers(db, projectId, branchId, now)).auth ?? {};
  return {
    rules: orderedRules(auth.signUpRules),
    defaultAction: auth.signUpRulesDefaultAction === 'reject' ? 'reject' : 'allow',
    riskHeuristic: auth.signUpRiskHeuristic !== false,
  };
}

const pendingWrites = new WeakMap<Runtime, Set<Promise<void>>>();

/**
 * Counts the rules that matched, outside the caller's transaction: a rejected sign-up rolls its
 * transaction back, and its trigger must still count. The write is not awaited (on SQLite it
 * waits for the transaction's connection); the stats route awaits this process's pending writes.
 */
function countTriggers(ctx: OperationContext, projectId: string, branchId: string, triggered: SignUpRulesTrace['triggered']): void {
  if (triggered.length === 0) return;
  const hourStart = Math.floor(ctx.now / HOUR) * HOUR;
  const rows = triggered.map((t) => ({
    project_id: projectId,
    branch_id: branchId,
    rule_id: t.ruleId,
    action: t.action,
    hour_start: hourStart,
  }));
  let pending = pendingWrites.get(ctx.runtime);
  if (!pending) pendingWrites.set(ctx.runtime, (pending = new Set()));
  const write: Promise<void> = incrementTriggerCounts(ctx.runtime.db, rows)
    .catch((error: unknown) => {
      ctx.runtime.log.error({ err: String(error) }, 'counting sign-up rule triggers failed');
    })
    .finally(() => {
      pending.delete(write);
    });
  pending.add(write);
}

/** Waits until this process's trigger counts are written (the stats route reads after). */
export async function settleTriggerCounts(runtime: Runtime): Promise<void> {
  await Promise.all([...(pendingWrites.get(runtime) ?? [])]);
}

/** How a user signs up, for the rules (upstream `SignUpRuleOptions`). */
export interface SignUpAttempt {
  /** The new user's email (normalized), or null (an OAuth provider without one). */
  email: string | null;
  authMethod: SignUpAuthMethod;
  /** The provider id for OAuth, else null. */
  oauthProvider: string | null;
  /** The sign-up's bot challenge (core/bot-challenge `assessBotChallenge`); default: none (`ok`). */
  botChallenge?: BotChallengeAssessment;
}

/**
 * Applies the project's sign-up rules to a sign-up (upstream `createOrUpgradeAnonymousUserWithRules`):
 * refuses a failed visible bot challenge (BOT_CHALLENGE_FAILED), computes the risk scores,
 * evaluates the rules, counts the triggered ones, and throws
 * SIGN_UP_REJECTED (403, the same message whatever the rule: its `message` is for admins only)
 * when the outcome is to reject.
 *
 * @returns the fields the new (or upgraded) user gets: `risk_scores`, `country_code` when known
 *   and not already set, and, when a `restrict` rule matched, `restricted_by_admin` with private
 *   details naming the rule (appended to an upgraded user's existing details); plus the hashed facts
 *   to remember once the user exists.
 */
export async function checkSignUpRules(
  ctx: OperationContext,
  project: Project,
  attempt: SignUpAttempt,
  upgrading: UserRow | null,
): Promise<{ fields: NewUserFields; facts: SignUpFacts }> {
  const botChallenge = attempt.botChallenge ?? NO_BOT_CHALLENGE;
  assertSignUpChallengePassed(botChallenge);
  const branchId = ctx.auth?.branchId ?? 'main';
  const clientAddress = ctx.auth?.accessType === 'client' || !ctx.auth ? ctx.clientAddress : null;
  const facts = signUpFacts(project.id, clientAddress, attempt.email);
  const { rules, defaultAction, riskHeuristic } = await loadSignUpRules(ctx.db, project.id, branchId, ctx.now);
  const riskScores = riskHeuristic ? await signUpRiskScores(ctx.db, project.id, facts, ctx.now) : NO_RISK;
  const countryCode = upgrading?.country_code ?? signUpCountryCode(attempt.email, ctx.runtime.environment);
  const trace = await evaluateSignUpRules(
    rules,
    defaultAction,
    createSignUpRuleContext({
      email: attempt.email,
      countryCode,
      authMethod: attempt.authMethod,
      oauthProvider: attempt.oauthProvider,
      riskScores,
      turnstileResult: botChallenge.result,
    }),
    project.id,
  );
  countTriggers(ctx, project.id, branchId, trace.triggered);
  if (!trace.outcome.shouldAllow) throw new KnownError('SIGN_UP_REJECTED');

  const fields: NewUserFields = { risk_scores: JSON.stringify({ sign_up: riskScores }) };
  if (countryCode && !upgrading?.country_code) fields.country_code = countryCode;
  const ruleId = trace.outcome.restrictedBecauseOfRuleId;
  if (ruleId !== null) {
    const displayName = rules.find(([id]) => id === ruleId)?.[1].displayName ?? '';
    const details = `Restricted by sign-up rule: ${ruleId}${displayName ? ` (${displayName})` : ''}`;
    const existing = upgrading?.restricted_by_admin_private_details ?? null;
    fields.restricted_by_admin = true;
    fields.restricted_by_admin_private_details = existing ? `${existing}\n\n${details}` : details;
  }
  return { fields, facts };
}

/**
 * The one sign-up entry of every sign-up path (password, OTP / magic link, OAuth; passkeys only
 * attach to existing users): asks the sign-in attempt listeners ({@link checkSignInAttempt}:
 * SSO_REQUIRED for an address whose verified team domain enforces SSO), applies the sign-up rules (SIGN_UP_REJECTED), then creates the user
 * with its personal team and user-created listeners, or, when `caller` is an anonymous user,
 * upgrades that user in place. Runs in the caller's transaction. Anonymous sign-ups do not go
 * through the rules (upstream: rules apply when an anonymous user gets an identity).
 */
export async function signUpUser(
  ctx: OperationContext,
  project: Project,
  attempt: SignUpAttempt,
  fields: NewUserFields,
  caller: UserRow | null,
): Promise<UserRow> {
  const upgrading = caller && caller.is_anonymous ? caller : null;
  if (attempt.authMethod === 'password' || attempt.authMethod === 'otp' || attempt.authMethod === 'oauth')
    await checkSignInAttempt(ctx, project, { email: attempt.email, method: attempt.authMethod });
  const verdict = await checkSignUpRules(ctx, project, attempt, upgrading);
  const merged = { ...fields, ...verdict.fields };
  const user = upgrading
    ? await upgradeAnonymousUser(ctx, project, upgrading, merged)
    : await finishUserCreation(ctx, project, await insertNewUser(ctx, project, merged));
  await insertSignUpFacts(ctx.db, { user_id: user.id, project_id: project.id, signed_up_at: ctx.now, ...verdict.facts });
  return user;
}
