import * as v from 'valibot';
import { QueryBooleanSchema, UserIdOrMeSchema, UuidSchema } from '../lib/schemas.ts';

/** The system team permissions (upstream's six, plus Gatehouse's `$manage_sso`, issue 32) and their descriptions (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/team-permissions/; upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ Permission). */
export const SYSTEM_TEAM_PERMISSIONS: Readonly<Record<string, string>> = {
  $delete_team: 'Delete the team',
  $invite_members: 'Invite other users to the team',
  $manage_api_keys: 'Create and manage API keys for the team',
  $manage_sso: "Manage the team's single sign-on: verified domains, SSO connections and SCIM provisioning",
  $read_members: 'Read and list the other members of the team',
  $remove_members: 'Remove other members from the team',
  $update_team: 'Update the team information',
};

/** The two scopes a permission definition lives in. */
export type PermissionScope = 'team' | 'project';

/** True for one of the `$` system permission ids. */
export function isSystemPermission(id: string): boolean {
  return Object.hasOwn(SYSTEM_TEAM_PERMISSIONS, id);
}

const CUSTOM_ID = /^[a-z0-9_:]+$/;

/**
 * A permission id as it appears in paths, queries and contained lists: a custom id
 * (`^[a-z0-9_:]+$`) or a listed `$` system id, with the exact messages of upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts.
 */
export const PermissionIdSchema = v.pipe(
  v.string(),
  v.check(
    (s) => CUSTOM_ID.test(s.startsWith('$') ? s.slice(1) : s),
    'Only lowercase letters, numbers, ":", "_" and optional "$" at the beginning are allowed',
  ),
  v.check((s) => !s.startsWith('$') || isSystemPermission(s), 'Invalid system permission'),
);

/** Body of `POST /{team,project}-permission-definitions`. */
export const DefinitionCreateSchema = v.strictObject({
  id: PermissionIdSchema,
  description: v.optional(v.nullable(v.string())),
  contained_permission_ids: v.optional(v.array(PermissionIdSchema)),
});

/** Body of `PATCH /{team,project}-permission-definitions/{id}`; `id` renames. */
export const DefinitionUpdateSchema = v.strictObject({
  id: v.optional(PermissionIdSchema),
  description: v.optional(v.nullable(v.string())),
  contained_permission_ids: v.optional(v.array(PermissionIdSchema)),
});

export const DefinitionParamsSchema = v.strictObject({ permission_id: PermissionIdSchema });

export const TeamGrantParamsSchema = v.strictObject({ team_id: UuidSchema, user_id: UserIdOrMeSchema, permission_id: PermissionIdSchema });
export const ProjectGrantParamsSchema = v.strictObject({ user_id: UserIdOrMeSchema, permission_id: PermissionIdSchema });

export const TeamPermissionsQuerySchema = v.strictObject({
  team_id: v.optional(UuidSchema),
  user_id: v.optional(UserIdOrMeSchema),
  permission_id: v.optional(PermissionIdSchema),
  recursive: v.optional(QueryBooleanSchema),
});

export const ProjectPermissionsQuerySchema = v.strictObject({
  user_id: v.optional(UserIdOrMeSchema),
  permission_id: v.optional(PermissionIdSchema),
  recursive: v.optional(QueryBooleanSchema),
});
