import * as v from 'valibot';
import { KnownError } from '../errors/index.ts';
import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { isHostnameTrusted } from '../config/domains.ts';
import { loadTurnstileSettings } from './settings.ts';
import { siteverify, type TurnstileAction, type TurnstileResult } from './siteverify.ts';

/**
 * The `bot_challenge_*` body fields of sign-up, password sign-in and OTP send (upstream
 * `botChallengeFlowRequestSchemaFields`): the Turnstile token, the phase it was solved in
 * (`invisible` first, `visible` on the retry) and `bot_challenge_unavailable` (the browser could
 * not run Turnstile at all). Null means absent; `bot_challenge_unavailable` takes a boolean or
 * `"true"` / `"false"`.
 */
export const BotChallengeBodyEntries = {
  bot_challenge_token: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(4096, 'must be at most 4096 characters')))),
  bot_challenge_phase: v.optional(v.nullable(v.picklist(['invisible', 'visible'], 'must be invisible or visible'))),
  bot_challenge_unavailable: v.optional(v.nullable(v.union([v.boolean(), v.picklist(['true', 'false'])], 'must be true or false'))),
};

/** The same fields as query parameters (OAuth authorize is a GET). */
export const BotChallengeQueryEntries = {
  bot_challenge_token: v.optional(v.pipe(v.string(), v.maxLength(4096, 'must be at most 4096 characters'))),
  bot_challenge_phase: v.optional(v.picklist(['invisible', 'visible'], 'must be invisible or visible')),
  bot_challenge_unavailable: v.optional(v.picklist(['true', 'false'], 'must be true or false')),
};

/** The fields as a request carried them. */
export interface BotChallengeFields {
  bot_challenge_token?: string | null;
  bot_challenge_phase?: 'invisible' | 'visible' | null;
  bot_challenge_unavailable?: boolean | 'true' | 'false' | null;
}

/**
 * A request's bot challenge outcome (upstream `SignUpTurnstileAssessment`): `result` is what
 * sign-up rules see as `turnstileResult`; `visibleResult` is set when the visible retry was used
 * (or the browser reported Turnstile unavailable).
 */
export interface BotChallengeAssessment {
  result: TurnstileResult;
  visibleResult?: TurnstileResult;
}

/** The outcome of a project without a bot challenge (as upstream's disabled challenge): `ok`. */
export const NO_BOT_CHALLENGE: BotChallengeAssessment = { result: 'ok' };

/** Known errors `assessBotChallenge` raises. */
export const BOT_CHALLENGE_ERRORS = ['BOT_CHALLENGE_REQUIRED', 'BOT_CHALLENGE_FAILED'] as const;

/**
 * True when the request carries a phase (or says Turnstile is unavailable): a client taking part
 * in the challenge flow. Password sign-in verifies only then (nothing depends on the result of a
 * sign-in that is not refused).
 */
export function takesPartInChallenge(fields: BotChallengeFields): boolean {
  return fields.bot_challenge_phase != null || fields.bot_challenge_unavailable === true || fields.bot_challenge_unavailable === 'true';
}

/**
 * Verifies a request's bot challenge for `action` (upstream
 * `verifyTurnstileTokenWithOptionalVisibleChallenge`). Call it before any transaction: it may
 * wait up to the siteverify deadline (3 s by default).
 *
 * - Project without a Turnstile site key: `ok`, nothing fetched.
 * - `bot_challenge_unavailable`: `error` with `visibleResult: 'error'` (a sign-up is then refused
 *   with BOT_CHALLENGE_FAILED by `assertSignUpChallengePassed`, as upstream: a client may claim it).
 *   Combined with a token or phase: BOT_CHALLENGE_FAILED.
 * - No phase (clients outside the flow, e.g. older SDKs): the verdict as is — no token is
 *   `invalid` — and the sign-up rules decide.
 * - Phase `invisible`: a verdict of `invalid` answers BOT_CHALLENGE_REQUIRED (409), the signal to
 *   retry with the visible widget.
 * - Phase `visible`: `invalid` answers BOT_CHALLENGE_FAILED (400); `ok` gives `invalid` with
 *   `visibleResult: 'ok'` (the invisible challenge did fail; a client cannot choose its result).
 * - Siteverify unreachable, too slow or refusing the server's secret (`error`, any phase):
 *   never a refusal by itself (a retry cannot fix the server's own outage): the result is `error`,
 *   logged, and the project's sign-up rules decide (docs/security.md "Bot challenges"). Upstream
 *   re-challenges in that case instead.
 *
 * @throws BOT_CHALLENGE_REQUIRED, BOT_CHALLENGE_FAILED as above.
 */
export async function assessBotChallenge(
  ctx: OperationContext,
  project: Project,
  fields: BotChallengeFields,
  action: TurnstileAction,
): Promise<BotChallengeAssessment> {
  const branchId = ctx.auth?.branchId ?? 'main';
  // The project's config view (rendered from the `main` branch on every config write) says at no
  // cost that most projects have no site key.
  if (branchId === 'main' && !project.config.botChallengeSiteKey) return NO_BOT_CHALLENGE;
  const settings = await loadTurnstileSettings(ctx.runtime, ctx.db, project.id, branchId, ctx.now);
  if (!settings) return NO_BOT_CHALLENGE;
  const token = fields.bot_challenge_token?.trim() || null;
  const phase = fields.bot_challenge_phase ?? null;
  if (fields.bot_challenge_unavailable === true || fields.bot_challenge_unavailable === 'true') {
    if (token !== null || phase !== null)
      throw new KnownError('BOT_CHALLENGE_FAILED', {
        message: 'bot_challenge_unavailable cannot be combined with a bot challenge token or phase.',
      });
    return { result: 'error', visibleResult: 'error' };
  }
  let result: TurnstileResult = 'invalid';
  if (token !== null) {
    const verdict =
      settings.secretKey === null
        ? { result: 'error' as const, reason: 'the project has a Turnstile site key but no secret key' }
        : await siteverify(ctx.runtime, {
            secretKey: settings.secretKey,
            token,
            expectedAction: action,
            // The visitor's address only for browser calls; an app backend's address says nothing.
            remoteIp: ctx.auth === null || ctx.auth.accessType === 'client' ? ctx.clientAddress : null,
            isAllowedHostname: (hostname) =>
              isHostnameTrusted(hostname, {
                allowLocalhost: project.config.allowLocalhost,
                domains: project.config.domains,
                extraOrigins: [ctx.runtime.baseUrl],
              }),
          });
    if (verdict.result !== 'ok')
      ctx.runtime.log[verdict.result === 'error' ? 'warn' : 'info'](
        { projectId: project.id, action, phase, reason: verdict.reason },
        `bot challenge ${verdict.result}`,
      );
    result = verdict.result;
  }
  if (result === 'error' || phase === null) return { result };
  if (phase === 'invisible') {
    if (result !== 'ok') throw new KnownError('BOT_CHALLENGE_REQUIRED');
    return { result };
  }
  if (result !== 'ok') throw new KnownError('BOT_CHALLENGE_FAILED', { message: 'Visible bot challenge verification failed' });
  return { result: 'invalid', visibleResult: 'ok' };
}

/**
 * Refuses a sign-up whose visible challenge did not pass (upstream
 * `assertVisibleBotChallengePassedForSignUp`): the browser said Turnstile was unavailable.
 *
 * @throws BOT_CHALLENGE_FAILED
 */
export function assertSignUpChallengePassed(assessment: BotChallengeAssessment): void {
  if (assessment.visibleResult !== undefined && assessment.visibleResult !== 'ok') {
    throw new KnownError('BOT_CHALLENGE_FAILED', { message: 'Visible bot challenge could not be completed' });
  }
}
