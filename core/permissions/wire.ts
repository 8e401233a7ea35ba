import type { Definition } from './queries.ts';
import { SYSTEM_TEAM_PERMISSIONS } from './schemas.ts';

/** A definition on the wire: `{id, description?, contained_permission_ids}` (ids sorted; wire-protocol §3.9). */
export function toDefinitionJson(def: Pick<Definition, 'id' | 'description' | 'containedIds'>) {
  return {
    id: def.id,
    ...(def.description ? { description: def.description } : {}),
    contained_permission_ids: [...def.containedIds].sort(),
  };
}

/** The six system team permissions as definitions (listed with the team definitions). */
export function systemDefinitionsJson() {
  return Object.entries(SYSTEM_TEAM_PERMISSIONS).map(([id, description]) => ({ id, description, contained_permission_ids: [] as string[] }));
}
