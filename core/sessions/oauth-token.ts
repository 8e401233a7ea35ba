import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { sha256Hex } from '../lib/hash.ts';
import { isUuid } from '../lib/random.ts';
import { findProject } from '../projects/queries.ts';
import { hasValidProjectKey } from '../internal-api-keys/queries.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';
import { refreshSession } from './issue.ts';

/** The client secret the official SDK sends when it has no publishable key (wire-protocol §1.1). */
export const PUBLIC_CLIENT_SECRET = '__stack_public_client__';

/**
 * `POST /auth/oauth/token` (form-encoded, RFC 6749 §6): the `refresh_token` grant the official SDK
 * uses to refresh. `client_id` is the project id (optionally `#<branch>`), `client_secret` a
 * publishable key or the public-client sentinel. A bad refresh token answers the known error
 * REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED, not an OAuth error body (sdk-compatibility §1.3).
 */
export const oauthToken = defineOperation({
  id: 'sessions.oauthToken',
  method: 'POST',
  path: '/auth/oauth/token',
  summary: 'OAuth token endpoint (refresh_token grant).',
  access: 'public',
  input: {
    body: v.strictObject({
      grant_type: v.picklist(['refresh_token']),
      refresh_token: v.pipe(v.string(), v.minLength(1)),
      client_id: v.string(),
      client_secret: v.optional(v.string()),
      scope: v.optional(v.string()),
    }),
  },
  errors: ['INVALID_OAUTH_CLIENT_ID_OR_SECRET', 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED'],
  async run(ctx, { body }) {
    const [projectId = '', branchId = 'main'] = body.client_id.split('#');
    const project = projectId === INTERNAL_PROJECT_ID || isUuid(projectId) ? await findProject(ctx.db, projectId) : null;
    if (!project || branchId !== 'main') throw new KnownError('INVALID_OAUTH_CLIENT_ID_OR_SECRET', { client_id: body.client_id });
    const secret = body.client_secret ?? PUBLIC_CLIENT_SECRET;
    if (secret === PUBLIC_CLIENT_SECRET) {
      if (project.config.requirePublishableClientKey) throw new KnownError('INVALID_OAUTH_CLIENT_ID_OR_SECRET', { client_id: body.client_id });
    } else if (!(await hasValidProjectKey(ctx.db, project.id, 'publishable_client_key', sha256Hex(secret), ctx.now))) {
      throw new KnownError('INVALID_OAUTH_CLIENT_ID_OR_SECRET', { client_id: body.client_id });
    }
    const { accessToken } = await refreshSession(ctx, project, body.refresh_token);
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: Math.floor(ctx.runtime.accessTokenTtlMs / 1000),
      refresh_token: body.refresh_token,
      scope: 'legacy',
    };
  },
});
