import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { secureRandomString, uuid } from '../lib/random.ts';
import { MANAGE_SSO_ERRORS, requireCanManageSso } from '../team-domains/index.ts';
import { insertScimToken, type ScimTokenRow } from './queries.ts';
import { scimBaseUrl, scimTokenHash, ScimTokenOutput, TeamParams, TOKEN_PREFIX, toWire } from './tokens.ts';

/**
 * `POST /teams/{team_id}/scim-tokens {description?}`: a new SCIM bearer token for the team,
 * answered once as `{token, base_url, …}` (only its SHA-256 hash is stored). A SCIM client
 * (Okta, Entra ID) sends it as `Authorization: Bearer <token>` to `base_url`; it reaches only this
 * team's users and groups. Server and admin callers, or a client with `$manage_sso`.
 */
export const createScimToken = defineOperation({
  id: 'scim.createToken',
  method: 'POST',
  path: '/teams/:team_id/scim-tokens',
  summary: 'Create a SCIM 2.0 provisioning token for a team; the token is shown once.',
  access: ['client', 'server', 'admin'],
  input: { params: TeamParams, body: v.strictObject({ description: v.optional(v.pipe(v.string(), v.maxLength(200))) }) },
  errors: [...MANAGE_SSO_ERRORS],
  created: true,
  output: v.strictObject({ ...ScimTokenOutput.pipe[0].entries, token: v.string(), base_url: v.string() }),
  async run(ctx, { params, body }) {
    const projectId = ctx.auth.project.id;
    return ctx.transaction(async (tx) => {
      await requireCanManageSso(tx, params.team_id);
      const token = `${TOKEN_PREFIX}${secureRandomString(224)}`;
      const row: ScimTokenRow = {
        id: uuid(),
        project_id: projectId,
        team_id: params.team_id,
        description: body.description ?? '',
        token_hash: scimTokenHash(token),
        last_four: token.slice(-4),
        created_at: tx.now,
        last_used_at: null,
      };
      await insertScimToken(tx.db, row);
      return { ...toWire(row), token, base_url: scimBaseUrl(ctx.runtime.baseUrl, params.team_id) };
    });
  },
});
