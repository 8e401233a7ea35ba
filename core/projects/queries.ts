import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, ProjectsTable } from '../storage/tables.ts';
import { parseStoredConfig, type ProjectConfig } from '../config/project-config.ts';
import { precompiled } from '../storage/precompiled.ts';

/** A project with its parsed config (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ Project). */
export interface Project {
  id: string;
  displayName: string;
  description: string;
  /** Epoch ms. */
  createdAt: number;
  isProductionMode: boolean;
  isDevelopmentEnvironment: boolean;
  ownerTeamId: string | null;
  logoUrl: string | null;
  logoFullUrl: string | null;
  logoDarkModeUrl: string | null;
  logoFullDarkModeUrl: string | null;
  config: ProjectConfig;
}

function toProject(row: Selectable<ProjectsTable>): Project {
  return {
    id: row.id,
    displayName: row.display_name,
    description: row.description,
    createdAt: Number(row.created_at),
    isProductionMode: row.is_production_mode,
    isDevelopmentEnvironment: row.is_development_environment,
    ownerTeamId: row.owner_team_id,
    logoUrl: row.logo_url,
    logoFullUrl: row.logo_full_url,
    logoDarkModeUrl: row.logo_dark_mode_url,
    logoFullDarkModeUrl: row.logo_full_dark_mode_url,
    config: parseStoredConfig(row.config),
  };
}

/** The project row as stored, from a Project. */
export function projectToRow(p: Project): Selectable<ProjectsTable> {
  return {
    id: p.id,
    display_name: p.displayName,
    description: p.description,
    created_at: p.createdAt,
    is_production_mode: p.isProductionMode,
    is_development_environment: p.isDevelopmentEnvironment,
    owner_team_id: p.ownerTeamId,
    logo_url: p.logoUrl,
    logo_full_url: p.logoFullUrl,
    logo_dark_mode_url: p.logoDarkModeUrl,
    logo_full_dark_mode_url: p.logoFullDarkModeUrl,
    config: JSON.stringify(p.config),
  };
}

const projectById = precompiled((db, a: { id: string }) => db.selectFrom('projects').selectAll().where('id', '=', a.id));

/** The project `id` with its parsed config, or null. Precompiled: requests re-read it often. */
export async function findProject(db: Kysely<Database>, id: string): Promise<Project | null> {
  const row = await projectById.executeTakeFirst(db, { id });
  return row ? toProject(row) : null;
}

/**
 * Serializes first-start seeding of the internal project among processes that start at the same
 * moment on one PostgreSQL: a transaction-scoped advisory lock, released at commit, so
 * the second process finds the first one's project and keys instead of inserting them again.
 * SQLite needs none here: its write lock serializes the seeding transactions (a process that lost
 * the race retries, see createCore).
 */
export async function lockInternalProjectSeeding(db: Kysely<Database>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${sql.lit(0x6761746568)})`.execute(db);
}

export async function insertProject(db: Kysely<Database>, project: Project): Promise<void> {
  await db.insertInto('projects').values(projectToRow(project)).execute();
}

export async function updateProject(db: Kysely<Database>, project: Project): Promise<void> {
  const { id, created_at: _c, ...rest } = projectToRow(project);
  await db.updateTable('projects').set(rest).where('id', '=', id).execute();
}

export async function deleteProject(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('projects').where('id', '=', id).execute();
}

/** Projects owned by any of `teamIds` (internal-project teams), oldest first. */
export async function listProjectsOwnedByTeams(db: Kysely<Database>, teamIds: string[]): Promise<Project[]> {
  if (teamIds.length === 0) return [];
  const rows = await db
    .selectFrom('projects')
    .selectAll()
    .where('owner_team_id', 'in', teamIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toProject);
}
