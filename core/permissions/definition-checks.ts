import type { Kysely } from 'kysely';
import { KnownError, StatusError } from '../errors/index.ts';
import type { Database } from '../storage/tables.ts';
import { findCycle } from './graph.ts';
import { findDefinition, listDefinitions, type Definition } from './queries.ts';
import { isSystemPermission, type PermissionScope } from './schemas.ts';

/**
 * Checks that every contained id exists in `scope` (team scope also accepts the `$` system
 * permissions). Throws CONTAINED_PERMISSION_NOT_FOUND with the first missing id.
 */
export async function checkContained(
  db: Kysely<Database>,
  projectId: string,
  scope: PermissionScope,
  ids: readonly string[],
): Promise<void> {
  for (const id of ids) {
    if (scope === 'team' && isSystemPermission(id)) continue;
    const def = await findDefinition(db, projectId, id);
    if (!def || def.scope !== scope) throw new KnownError('CONTAINED_PERMISSION_NOT_FOUND', { permission_id: id });
  }
}

/** Throws PERMISSION_ID_ALREADY_EXISTS when `id` is a system id or a definition of either scope. */
export async function checkIdFree(db: Kysely<Database>, projectId: string, id: string): Promise<void> {
  if (isSystemPermission(id) || (await findDefinition(db, projectId, id)))
    throw new KnownError('PERMISSION_ID_ALREADY_EXISTS', { permission_id: id });
}

/**
 * Rejects a change that would make the containment graph cyclic, as 400 text. `changed` is the
 * definition as it will be stored (after a possible rename).
 */
export async function checkAcyclic(db: Kysely<Database>, projectId: string, changed: Definition, previousId: string): Promise<void> {
  const defs = (await listDefinitions(db, projectId))
    .filter((d) => d.id !== previousId)
    .map((d) => ({ ...d, containedIds: d.containedIds.map((c) => (c === previousId ? changed.id : c)) }));
  const cycle = findCycle([changed, ...defs]);
  if (cycle) throw new StatusError('bad-request', `Permission definitions must not contain themselves: ${cycle.join(' → ')}`);
}

/** The definition `id` of `scope`, or PERMISSION_NOT_FOUND. */
export async function getDefinition(db: Kysely<Database>, projectId: string, scope: PermissionScope, id: string): Promise<Definition> {
  const def = (await listDefinitions(db, projectId, scope)).find((d) => d.id === id);
  if (!def) throw new KnownError('PERMISSION_NOT_FOUND', { permission_id: id });
  return def;
}
