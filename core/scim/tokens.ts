import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { secureRandomString, uuid } from '../lib/random.ts';
import { sha256Hex } from '../lib/hash.ts';
import { success } from '../lib/schemas.ts';
import { component, listOutput, MillisOutput, SuccessOutput } from '../operations/output.ts';
import { MANAGE_SSO_ERRORS, requireCanManageSso } from '../team-domains/index.ts';
import { deleteScimToken, insertScimToken, listScimTokens, type ScimTokenRow } from './queries.ts';

/** The SCIM base URL of a team: `<base>/api/v1/scim/v2/<team_id>` (RFC 7644 §3.1 "base URI"). */
export function scimBaseUrl(baseUrl: string, teamId: string): string {
  return `${baseUrl.replace(/\/$/, '')}/api/v1/scim/v2/${encodeURIComponent(teamId)}`;
}

/** Prefix of every SCIM token (lets secret scanners recognize one). */
const TOKEN_PREFIX = 'gh_scim_';

const TeamParams = v.strictObject({ team_id: v.pipe(v.string(), v.maxLength(100)) });

const ScimTokenOutput = component(
  'ScimToken',
  v.strictObject({
    id: v.string(),
    team_id: v.string(),
    description: v.string(),
    last_four: v.string(),
    created_at_millis: MillisOutput,
    last_used_at_millis: v.nullable(MillisOutput),
  }),
);

function toWire(row: ScimTokenRow): v.InferOutput<typeof ScimTokenOutput> {
  return {
    id: row.id,
    team_id: row.team_id,
    description: row.description,
    last_four: row.last_four,
    created_at_millis: row.created_at,
    last_used_at_millis: row.last_used_at,
  };
}

/** The hash a SCIM token is stored and looked up by (SHA-256 hex: the token has 224 random bits). */
export function scimTokenHash(token: string): string {
  return sha256Hex(token);
}

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

/** `GET /teams/{team_id}/scim-tokens`: the team's SCIM tokens (never their values). */
export const listScimTokensOp = defineOperation({
  id: 'scim.listTokens',
  method: 'GET',
  path: '/teams/:team_id/scim-tokens',
  summary: "List a team's SCIM provisioning tokens.",
  access: ['client', 'server', 'admin'],
  input: { params: TeamParams },
  errors: [...MANAGE_SSO_ERRORS],
  output: listOutput(ScimTokenOutput),
  async run(ctx, { params }) {
    await requireCanManageSso(ctx, params.team_id);
    const rows = await listScimTokens(ctx.db, ctx.auth.project.id, params.team_id);
    return { items: rows.map(toWire), is_paginated: false as const };
  },
});

/** `DELETE /teams/{team_id}/scim-tokens/{token_id}`: revokes a SCIM token at once (SCIM_TOKEN_NOT_FOUND). */
export const deleteScimTokenOp = defineOperation({
  id: 'scim.deleteToken',
  method: 'DELETE',
  path: '/teams/:team_id/scim-tokens/:token_id',
  summary: 'Revoke a SCIM provisioning token.',
  access: ['client', 'server', 'admin'],
  input: { params: v.strictObject({ team_id: v.pipe(v.string(), v.maxLength(100)), token_id: v.pipe(v.string(), v.maxLength(100)) }) },
  ignoresBody: true,
  errors: [...MANAGE_SSO_ERRORS, 'SCIM_TOKEN_NOT_FOUND'],
  output: SuccessOutput,
  async run(ctx, { params }) {
    await ctx.transaction(async (tx) => {
      await requireCanManageSso(tx, params.team_id);
      if (!(await deleteScimToken(tx.db, ctx.auth.project.id, params.team_id, params.token_id))) {
        throw new KnownError('SCIM_TOKEN_NOT_FOUND', { token_id: params.token_id });
      }
    });
    return success;
  },
});
