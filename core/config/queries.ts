import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import type { ConfigLevel } from './schema.ts';
import { parseJsonText } from '../lib/json-text.ts';

/** A stored override row, parsed. */
export interface OverrideRow {
  level: ConfigLevel;
  config: Record<string, unknown>;
  source: Record<string, unknown> | null;
  /** Set when the stored text could not be read within parseJsonText's bound (`config` is then empty). */
  unreadable?: string;
}

function readStored(text: string): { value: Record<string, unknown> } | { problem: string } {
  try {
    return { value: parseJsonText(text) as Record<string, unknown> };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/**
 * The override rows of a project: its project-level row and `branchId`'s branch and environment
 * rows. A row stored before JSON texts were bounded and nested too deeply
 * comes back empty with `unreadable` set, instead of failing every render of the project.
 */
export async function findOverrideRows(db: Kysely<Database>, projectId: string, branchId: string): Promise<OverrideRow[]> {
  const rows = await db
    .selectFrom('config_overrides')
    .select(['level', 'config', 'source'])
    .where('project_id', '=', projectId)
    .where((eb) => eb.or([eb('branch_id', '=', branchId), eb('level', '=', 'project')]))
    .execute();
  return rows.map((r) => {
    const config = readStored(r.config);
    const source = r.source === null ? null : readStored(r.source);
    const problem = 'problem' in config ? config.problem : source && 'problem' in source ? source.problem : undefined;
    return {
      level: r.level as ConfigLevel,
      config: 'value' in config ? config.value : {},
      source: source && 'value' in source ? source.value : null,
      ...(problem ? { unreadable: problem } : {}),
    };
  });
}

/** Inserts or replaces one override row (the source is kept when `source` is undefined). */
export async function upsertOverride(
  db: Kysely<Database>,
  row: {
    projectId: string;
    branchId: string;
    level: ConfigLevel;
    config: Record<string, unknown>;
    source?: Record<string, unknown> | null;
    now: number;
  },
): Promise<void> {
  const branchId = row.level === 'project' ? '' : row.branchId;
  const values = {
    config: JSON.stringify(row.config),
    updated_at: row.now,
    ...(row.source !== undefined ? { source: row.source === null ? null : JSON.stringify(row.source) } : {}),
  };
  await db
    .insertInto('config_overrides')
    .values({ project_id: row.projectId, level: row.level, branch_id: branchId, source: null, ...values })
    .onConflict((oc) => oc.columns(['project_id', 'level', 'branch_id']).doUpdateSet(values))
    .execute();
}

/** The project's stored legacy config JSON (the materialised view), or null for no project. */
export async function findStoredProjectConfig(db: Kysely<Database>, projectId: string): Promise<string | null> {
  const row = await db.selectFrom('projects').select('config').where('id', '=', projectId).executeTakeFirst();
  return row?.config ?? null;
}

/** Writes the legacy config view of the rendered configuration onto the project row. */
export async function writeProjectConfigView(db: Kysely<Database>, projectId: string, configJson: string): Promise<void> {
  await db.updateTable('projects').set({ config: configJson }).where('id', '=', projectId).execute();
}
