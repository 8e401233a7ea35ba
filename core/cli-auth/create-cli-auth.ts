import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { sha256Hex } from '../lib/hash.ts';
import { secureRandomString, uuid } from '../lib/random.ts';
import { findRefreshTokenByHash } from '../sessions/index.ts';
import { findUser } from '../users/index.ts';
import { insertCliAuthAttempt } from './queries.ts';

/** Default and longest lifetime of a CLI login attempt, in ms (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/, https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/verification-code-handler.tsx). */
export const CLI_AUTH_DEFAULT_TTL_MS = 2 * 60 * 60 * 1000;
export const CLI_AUTH_MAX_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Starts a CLI login valid for `expires_in_millis` (default 2 h, at most 24 h), answering a
 * polling code, a login code and `expires_at` (an ISO string). The CLI keeps the
 * polling code and opens `/handler/cli-auth-confirm?login_code=…` for the user. Both codes are
 * 45-character random strings, stored only as SHA-256.
 *
 * `anon_refresh_token` names the CLI's anonymous session, which the confirmation page may claim
 * (`/auth/cli/complete` mode `claim-anon-session`); only the session's id is stored. 400 text
 * when it is unknown, expired, or not an anonymous user's (upstream's messages).
 *
 * @see upstream `auth/cli/route.tsx`
 */
export const createCliAuth = defineOperation({
  id: 'cliAuth.create',
  method: 'POST',
  path: '/auth/cli',
  summary: 'Start a CLI login: a polling code for the CLI and a login code for the browser.',
  access: ['client', 'server', 'admin'],
  input: {
    body: v.strictObject({
      expires_in_millis: v.optional(
        v.pipe(
          v.number(),
          v.minValue(0, 'must be non-negative'),
          v.maxValue(CLI_AUTH_MAX_TTL_MS, `must be less than or equal to ${CLI_AUTH_MAX_TTL_MS}`),
        ),
      ),
      anon_refresh_token: v.optional(v.string()),
    }),
  },
  errors: [],
  output: v.strictObject({ polling_code: v.string(), login_code: v.string(), expires_at: v.pipe(v.string(), v.isoTimestamp()) }),
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    let anonSessionId: string | null = null;
    if (body.anon_refresh_token) {
      const session = await findRefreshTokenByHash(ctx.db, project.id, sha256Hex(body.anon_refresh_token));
      if (!session) throw new StatusError('bad-request', 'Invalid anon refresh token');
      if (session.expires_at !== null && Number(session.expires_at) <= ctx.now)
        throw new StatusError('bad-request', 'The provided anon refresh token has expired');
      const user = await findUser(ctx.db, project.id, session.user_id);
      if (!user) throw new StatusError('bad-request', 'User not found for provided refresh token');
      if (!user.is_anonymous) throw new StatusError('bad-request', 'The provided refresh token does not belong to an anonymous user');
      anonSessionId = session.id;
    }
    const pollingCode = secureRandomString();
    const loginCode = secureRandomString();
    const expiresAt = ctx.now + Math.floor(body.expires_in_millis ?? CLI_AUTH_DEFAULT_TTL_MS);
    await insertCliAuthAttempt(ctx.db, {
      id: uuid(),
      project_id: project.id,
      polling_code_hash: sha256Hex(pollingCode),
      login_code_hash: sha256Hex(loginCode),
      anon_refresh_token_id: anonSessionId,
      user_id: null,
      created_at: ctx.now,
      expires_at: expiresAt,
      completed_at: null,
      used_at: null,
    });
    return { polling_code: pollingCode, login_code: loginCode, expires_at: new Date(expiresAt).toISOString() };
  },
});
