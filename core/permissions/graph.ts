import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import { listDefinitions, replaceClosure, type Definition } from './queries.ts';
import { SYSTEM_TEAM_PERMISSIONS, type PermissionScope } from './schemas.ts';

/**
 * The reflexive-transitive closure of the containment graph: one row per (ancestor, descendant)
 * where holding the ancestor implies the descendant. System permissions imply only themselves.
 */
export function computeClosure(defs: readonly Definition[]): Array<{ scope: PermissionScope; ancestor: string; descendant: string }> {
  const children = new Map(defs.map((d) => [d.id, d.containedIds]));
  const rows: Array<{ scope: PermissionScope; ancestor: string; descendant: string }> = [];
  for (const id of Object.keys(SYSTEM_TEAM_PERMISSIONS)) rows.push({ scope: 'team', ancestor: id, descendant: id });
  for (const def of defs) {
    const seen = new Set<string>([def.id]);
    const stack = [...def.containedIds];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(children.get(next) ?? []));
    }
    for (const descendant of seen) rows.push({ scope: def.scope, ancestor: def.id, descendant });
  }
  return rows;
}

/**
 * The first containment cycle in `defs` as a path (`a → b → a`), or null. Definitions may only
 * form a DAG: a cycle would make every member imply every other.
 */
export function findCycle(defs: readonly Definition[]): string[] | null {
  const children = new Map(defs.map((d) => [d.id, d.containedIds]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'open') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'open');
    path.push(id);
    for (const child of children.get(id) ?? []) {
      const cycle = visit(child);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, 'done');
    return null;
  };
  for (const def of defs) {
    const cycle = visit(def.id);
    if (cycle) return cycle;
  }
  return null;
}

/** Recomputes and stores the closure of a project after any definition change. */
export async function rebuildClosure(db: Kysely<Database>, projectId: string): Promise<void> {
  await replaceClosure(db, projectId, computeClosure(await listDefinitions(db, projectId)));
}
