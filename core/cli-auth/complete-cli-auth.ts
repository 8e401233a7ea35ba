import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { sha256Hex } from '../lib/hash.ts';
import { issueSession } from '../sessions/index.ts';
import { findAttemptByLoginHash, confirmAttempt, detachAnonSession, type CliAuthAttemptRow } from './queries.ts';
import { anonymousSessionById, sessionOfRefreshToken } from './sessions.ts';
import { SuccessOutput } from '../operations/output.ts';

const INVALID_LOGIN_CODE = 'Invalid login code or the code has expired';

/**
 * Confirms a CLI login; called by the confirmation
 * page the CLI opened (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/):
 * - `mode: "check"` → `{cli_session_state: "anonymous" | "none"}`: whether the CLI started from
 *   an anonymous session that is still alive;
 * - `mode: "claim-anon-session"` → `{access_token, refresh_token}`: a session for that anonymous
 *   user (once), so the page can upgrade it in place before completing;
 * - `mode: "complete"` (default) with the signed-in browser's `refresh_token` → `{success: true}`:
 *   confirms the login for that user; the CLI's next poll receives a session of its own.
 *
 * Errors are 400 text as upstream: an unknown, expired, confirmed or used login code ("Invalid
 * login code or the code has expired"), a missing or invalid `refresh_token`, no anonymous
 * session to claim. Each attempt is confirmed at most once (a conditional update).
 *
 * @see upstream `auth/cli/complete/route.tsx`, e2e `auth/cli/complete.test.ts`
 */
export const completeCliAuth = defineOperation({
  id: 'cliAuth.complete',
  method: 'POST',
  path: '/auth/cli/complete',
  summary: 'Confirm a CLI login as the signed-in user (or check / claim its anonymous session).',
  access: ['client', 'server', 'admin'],
  input: {
    body: v.strictObject({
      login_code: v.string(),
      mode: v.optional(v.picklist(['check', 'claim-anon-session', 'complete']), 'complete'),
      refresh_token: v.optional(v.string()),
    }),
  },
  errors: [],
  output: v.union([
    v.strictObject({ cli_session_state: v.picklist(['anonymous', 'none']) }),
    v.strictObject({ access_token: v.string(), refresh_token: v.string() }),
    SuccessOutput,
  ]),
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    const attempt = await findAttemptByLoginHash(ctx.db, project.id, sha256Hex(body.login_code));
    if (!isPending(attempt, ctx.now)) throw new StatusError('bad-request', INVALID_LOGIN_CODE);

    if (body.mode === 'check') {
      const anon = await anonymousSessionById(ctx, project.id, attempt.anon_refresh_token_id);
      return { cli_session_state: anon ? 'anonymous' : 'none' };
    }

    if (body.mode === 'claim-anon-session') {
      const anon = await anonymousSessionById(ctx, project.id, attempt.anon_refresh_token_id);
      if (!anon) throw new StatusError('bad-request', 'No anonymous session associated with this code');
      return ctx.transaction(async (tx) => {
        if (!(await detachAnonSession(tx.db, project.id, attempt.id, anon.sessionId, tx.now))) {
          throw new StatusError('bad-request', 'No anonymous session associated with this code');
        }
        const session = await issueSession(tx, project, anon.user);
        return { access_token: session.accessToken, refresh_token: session.refreshToken };
      });
    }

    if (!body.refresh_token) throw new StatusError('bad-request', "refresh_token is required when mode is 'complete'");
    const browser = await sessionOfRefreshToken(ctx, project.id, body.refresh_token);
    if (!browser) throw new StatusError('bad-request', 'Invalid refresh token');
    if (!(await confirmAttempt(ctx.db, project.id, attempt.id, browser.user.id, ctx.now)))
      throw new StatusError('bad-request', INVALID_LOGIN_CODE);
    return { success: true };
  },
});

function isPending(attempt: CliAuthAttemptRow | null, now: number): attempt is CliAuthAttemptRow {
  return attempt !== null && attempt.user_id === null && attempt.used_at === null && Number(attempt.expires_at) > now;
}
