import * as v from 'valibot';
import { component } from '../operations/output.ts';
import type { Definition } from './queries.ts';
import { SYSTEM_TEAM_PERMISSIONS } from './schemas.ts';

/** A definition on the wire: `{id, description?, contained_permission_ids}` (ids sorted; upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/team-permissions/). */
export function toDefinitionJson(def: Pick<Definition, 'id' | 'description' | 'containedIds'>) {
  return {
    id: def.id,
    ...(def.description ? { description: def.description } : {}),
    contained_permission_ids: [...def.containedIds].sort(),
  };
}

/** The system team permissions as definitions (listed with the team definitions). */
export function systemDefinitionsJson() {
  return Object.entries(SYSTEM_TEAM_PERMISSIONS).map(([id, description]) => ({
    id,
    description,
    contained_permission_ids: [] as string[],
  }));
}

/** Output schema of `toDefinitionJson`. */
export const PermissionDefinitionOutput = component(
  'PermissionDefinition',
  v.strictObject({
    id: v.string(),
    description: v.optional(v.string()),
    contained_permission_ids: v.array(v.string()),
  }),
);

/** A granted project permission `{id, user_id}`. */
export const ProjectPermissionOutput = component('ProjectPermission', v.strictObject({ id: v.string(), user_id: v.string() }));

/** A granted team permission `{id, user_id, team_id}`. */
export const TeamPermissionOutput = component(
  'TeamPermission',
  v.strictObject({ id: v.string(), user_id: v.string(), team_id: v.string() }),
);
