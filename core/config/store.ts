import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import {
  applyOverridePatch,
  configOrigins,
  ConfigOverrideError,
  renderConfig,
  validateOverride,
  type ConfigOverride,
  type RenderedConfig,
} from './format.ts';
import { legacyChangeToPatch, legacyToOverride, renderedToLegacy } from './legacy.ts';
import { parseStoredConfig, type ProjectConfig } from './project-config.ts';
import { findOverrideRows, findStoredProjectConfig, upsertOverride, writeProjectConfigView } from './queries.ts';
import type { ConfigLevel } from './schema.ts';

/** Where the branch's config came from (upstream `branchConfigSourceSchema`). */
export type BranchConfigSource = Record<string, unknown> & { type: string };

/** The three override levels of one project and branch, plus the branch's config source. */
export interface ConfigLayers {
  project: ConfigOverride;
  branch: ConfigOverride;
  environment: ConfigOverride;
  source: BranchConfigSource;
}

const warned = new Set<string>();

/**
 * Says once per process and level that a stored override is ignored (a Node warning on stderr,
 * code GATEHOUSE_CONFIG_LEVEL_IGNORED): the project keeps working on its other levels and the
 * defaults until an admin replaces the level (PUT or PATCH of that level's override).
 */
function warnUnreadable(projectId: string, branchId: string, level: ConfigLevel, problem: string): void {
  const key = `${projectId}\u0000${branchId}\u0000${level}`;
  if (warned.has(key)) return;
  if (warned.size > 10_000) warned.clear();
  warned.add(key);
  process.emitWarning(
    `The ${level} config override of project ${projectId} (branch ${branchId}) is ignored: ${problem}. Replace it through /internal/config/override/${level}.`,
    { code: 'GATEHOUSE_CONFIG_LEVEL_IGNORED' },
  );
}

/**
 * Splits the override a project starts with into the keys a config file may own (the branch
 * level) and the rest (the environment level: secrets, trusted domains, the email server, OAuth
 * credentials). A new project's own defaults (localhost trusted, password sign-in on, the default
 * team permissions) are branch values, so a pushed file can change them.
 */
function splitInitialOverride(override: ConfigOverride): { branch: ConfigOverride; environment: ConfigOverride } {
  const branch: ConfigOverride = {};
  const environment: ConfigOverride = {};
  for (const [key, value] of Object.entries(override)) {
    try {
      validateOverride({ [key]: value }, 'branch');
      branch[key] = value;
    } catch (error) {
      if (!(error instanceof ConfigOverrideError)) throw error;
      environment[key] = value;
    }
  }
  return { branch, environment };
}

/**
 * Loads a project's overrides. A stored level that cannot be read within the JSON text bound
 * (core/config/queries.ts) is ignored with a warning. A project with no override rows yet (just created, created before
 * migration 0014, or not yet touched through the model) is brought in once: its stored legacy
 * config becomes its branch-level override (keys a file may own) and environment-level override
 * (the rest), so rendering gives back the same values.
 */
export async function loadConfigLayers(db: Kysely<Database>, projectId: string, branchId: string, now: number): Promise<ConfigLayers> {
  const rows = await findOverrideRows(db, projectId, branchId);
  if (rows.length === 0) {
    const stored = await findStoredProjectConfig(db, projectId);
    const { branch, environment } = splitInitialOverride(stored === null ? {} : legacyToOverride(parseStoredConfig(stored)));
    if (stored !== null) {
      await upsertOverride(db, { projectId, branchId, level: 'branch', config: branch, source: { type: 'unlinked' }, now });
      await upsertOverride(db, { projectId, branchId, level: 'environment', config: environment, now });
    }
    return { project: {}, branch, environment, source: { type: 'unlinked' } };
  }
  for (const row of rows) if (row.unreadable) warnUnreadable(projectId, branchId, row.level, row.unreadable);
  const byLevel = (level: ConfigLevel) => rows.find((r) => r.level === level);
  return {
    project: byLevel('project')?.config ?? {},
    branch: byLevel('branch')?.config ?? {},
    environment: byLevel('environment')?.config ?? {},
    source: (byLevel('branch')?.source as BranchConfigSource | null | undefined) ?? { type: 'unlinked' },
  };
}

/** The rendered config of the layers (project, branch, environment onto the defaults). */
export function renderLayers(layers: ConfigLayers): RenderedConfig {
  return renderConfig([layers.project, layers.branch, layers.environment]);
}

/** For each rendered leaf path, `default` or the level that set it (the dashboard's origin column). */
export function layerOrigins(layers: ConfigLayers) {
  return configOrigins([
    { level: 'project', override: layers.project },
    { level: 'branch', override: layers.branch },
    { level: 'environment', override: layers.environment },
  ]);
}

/**
 * Stores one level's override (replacing it) and refreshes the project's legacy `config` view
 * from the new rendered config, in the caller's transaction.
 *
 * @returns the legacy view now stored on the project.
 */
export async function saveConfigLevel(
  db: Kysely<Database>,
  args: { projectId: string; branchId: string; level: ConfigLevel; override: ConfigOverride; source?: BranchConfigSource; now: number },
): Promise<ProjectConfig> {
  const layers = await loadConfigLayers(db, args.projectId, args.branchId, args.now);
  layers[args.level] = args.override;
  await upsertOverride(db, {
    projectId: args.projectId,
    branchId: args.branchId,
    level: args.level,
    config: args.override,
    ...(args.source ? { source: args.source } : {}),
    now: args.now,
  });
  const legacy = renderedToLegacy(renderLayers(layers));
  await writeProjectConfigView(db, args.projectId, JSON.stringify(legacy));
  return legacy;
}

/** Sets the branch's config source (e.g. back to `{ type: 'unlinked' }`). */
export async function saveConfigSource(
  db: Kysely<Database>,
  projectId: string,
  branchId: string,
  source: BranchConfigSource,
  now: number,
): Promise<void> {
  const layers = await loadConfigLayers(db, projectId, branchId, now);
  await upsertOverride(db, { projectId, branchId, level: 'branch', config: layers.branch, source, now });
}

/**
 * Writes a change of the legacy project `config` (`PATCH /internal/projects/current`, a renamed
 * permission in the default lists) into the model: the changed fields become an
 * environment-level patch, as upstream's project update writes them.
 *
 * @returns the legacy view rendered from the model afterwards (what the project row now holds).
 */
export async function writeLegacyConfigChange(
  db: Kysely<Database>,
  args: { projectId: string; branchId: string; prev: ProjectConfig; next: ProjectConfig; now: number },
): Promise<ProjectConfig> {
  const layers = await loadConfigLayers(db, args.projectId, args.branchId, args.now);
  const patch = legacyChangeToPatch(args.prev, args.next);
  if (Object.keys(patch).length === 0) return renderedToLegacy(renderLayers(layers));
  return saveConfigLevel(db, {
    projectId: args.projectId,
    branchId: args.branchId,
    level: 'environment',
    override: applyOverridePatch(layers.environment, patch),
    now: args.now,
  });
}
