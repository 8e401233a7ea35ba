import * as v from 'valibot';
import { component, MillisOutput, NullableString } from '../operations/output.ts';
import type { ApiKeyRow } from './queries.ts';

/**
 * The API key object (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/user-api-keys/; upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/): `value` is the full secret only
 * in the create response, `{last_four}` afterwards; `expires_at_millis` and
 * `manually_revoked_at_millis` appear only when set.
 */
export function toApiKeyJson(row: ApiKeyRow, fullValue?: string) {
  return {
    id: row.id,
    description: row.description,
    is_public: row.is_public,
    created_at_millis: Number(row.created_at),
    ...(row.expires_at !== null ? { expires_at_millis: Number(row.expires_at) } : {}),
    ...(row.manually_revoked_at !== null ? { manually_revoked_at_millis: Number(row.manually_revoked_at) } : {}),
    value: fullValue ?? { last_four: row.last_four },
    ...(row.type === 'user' ? { type: 'user' as const, user_id: row.user_id } : { type: 'team' as const, team_id: row.team_id }),
  };
}

/**
 * Output schema of `toApiKeyJson`: `value` is the secret text only in the create answer; a user
 * key carries `user_id`, a team key `team_id`.
 */
export const ApiKeyOutput = component(
  'ApiKey',
  v.variant('type', [
    v.strictObject({ ...apiKeyEntries(), type: v.literal('user'), user_id: NullableString }),
    v.strictObject({ ...apiKeyEntries(), type: v.literal('team'), team_id: NullableString }),
  ]),
);

function apiKeyEntries() {
  return {
    id: v.string(),
    description: v.string(),
    is_public: v.boolean(),
    created_at_millis: MillisOutput,
    expires_at_millis: v.optional(MillisOutput),
    manually_revoked_at_millis: v.optional(MillisOutput),
    value: v.union([v.string(), v.strictObject({ last_four: v.string() })]),
  };
}
