import * as v from 'valibot';
import { sha256Hex } from '../lib/hash.ts';
import { API_PREFIX } from '../operations/api-path.ts';
import { component, MillisOutput } from '../operations/output.ts';
import type { ScimTokenRow } from './queries.ts';

/** The SCIM base URL of a team: `<base>/api/v1/scim/v2/<team_id>` (RFC 7644 §3.1 "base URI"). */
export function scimBaseUrl(baseUrl: string, teamId: string): string {
  return `${baseUrl.replace(/\/$/, '')}${API_PREFIX}/scim/v2/${encodeURIComponent(teamId)}`;
}

/** Prefix of every SCIM token (lets secret scanners recognize one). */
export const TOKEN_PREFIX = 'gh_scim_';

/** `{team_id}` path parameters. */
export const TeamParams = v.strictObject({ team_id: v.pipe(v.string(), v.maxLength(100)) });

/** A SCIM token on the wire (never its value, except once at creation). */
export const ScimTokenOutput = component(
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

/** The wire shape of a token row. */
export function toWire(row: ScimTokenRow): v.InferOutput<typeof ScimTokenOutput> {
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
