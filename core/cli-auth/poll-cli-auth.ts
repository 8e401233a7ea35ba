import * as v from 'valibot';
import { defineOperation, reply } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { sha256Hex } from '../lib/hash.ts';
import { issueSession } from '../sessions/index.ts';
import { findUser } from '../users/index.ts';
import { findAttemptByPollingHash, markAttemptUsed } from './queries.ts';

/**
 * Polls a CLI login: 200 `{status: "waiting" | "expired" | "used"}`, or,
 * once a signed-in user confirmed the login code, **201** `{status: "success", refresh_token}`
 * exactly once (the official SDK's `promptCliLogin` checks the 201). An unknown code answers a
 * schema error "The polling code is invalid or does not exist." (upstream's e2e snapshot).
 *
 * Gatehouse difference: the CLI gets a session of its own for the confirming user, created here,
 * instead of the browser's refresh token; so no refresh token is ever stored at rest, and the
 * CLI's session can be revoked without signing the browser out.
 *
 * @see upstream `auth/cli/poll/route.tsx`, e2e `auth/cli/poll.test.ts`
 */
export const pollCliAuth = defineOperation({
  id: 'cliAuth.poll',
  method: 'POST',
  path: '/auth/cli/poll',
  summary: 'Poll a CLI login: waiting, expired, used, or success with a refresh token.',
  access: ['client', 'server', 'admin'],
  input: { body: v.strictObject({ polling_code: v.string() }) },
  errors: ['SCHEMA_ERROR'],
  output: v.union([
    v.strictObject({ status: v.picklist(['waiting', 'expired', 'used']) }),
    v.strictObject({ status: v.literal('success'), refresh_token: v.string() }),
  ]),
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    const attempt = await findAttemptByPollingHash(ctx.db, project.id, sha256Hex(body.polling_code));
    if (!attempt) throw new KnownError('SCHEMA_ERROR', { message: 'The polling code is invalid or does not exist.' });
    if (Number(attempt.expires_at) <= ctx.now) return { status: 'expired' };
    if (attempt.used_at !== null) return { status: 'used' };
    if (attempt.user_id === null) return { status: 'waiting' };
    const userId = attempt.user_id;
    const refreshToken = await ctx.transaction(async (tx) => {
      if (!(await markAttemptUsed(tx.db, project.id, attempt.id, tx.now))) return null;
      const user = await findUser(tx.db, project.id, userId);
      if (!user) return null;
      return (await issueSession(tx, project, user)).refreshToken;
    });
    if (refreshToken === null) return { status: 'used' };
    return reply.json({ status: 'success', refresh_token: refreshToken }, { created: true });
  },
});
