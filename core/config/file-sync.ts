import {
  configOrigins,
  isPlainObject,
  mergeOverrides,
  renderConfig,
  validateOverride,
  ConfigOverrideError,
  type ConfigOverride,
} from './format.ts';
import type { ConfigLevel } from './schema.ts';

/**
 * Config as code (docs/config-as-code.md): what `gatehouse config pull` writes and what
 * `gatehouse config push` would change, computed from a project's three override levels. Pure
 * functions: the CLI reads the levels over the admin API and calls these.
 *
 * A config file is the branch level (upstream `config/README.md`). The environment level (the
 * dashboard's switches, `PATCH /internal/projects/current`, secrets) is merged after it and wins,
 * so a key set there shadows the file: push refuses to "change" such a key silently.
 */

/** The three override levels, as `GET /internal/config/override/{level}` answers them. */
export interface OverrideLevels {
  project: ConfigOverride;
  branch: ConfigOverride;
  environment: ConfigOverride;
}

/** One leaf path of a (merged or rendered) config → its value; empty objects are leaves. */
export function flattenLeaves(value: unknown, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    for (const [k, child] of Object.entries(value)) flattenLeaves(child, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix) out[prefix] = value;
  return out;
}

/** Whether a config file (the branch level) may set `path`: environment-only keys (secrets, trusted domains, the email server, OAuth credentials) and project-only keys may not. */
export function fileMayOwn(path: string): boolean {
  try {
    validateOverride({ [path]: null }, 'branch');
    return true;
  } catch (error) {
    if (error instanceof ConfigOverrideError) return false;
    throw error;
  }
}

const layerList = (levels: OverrideLevels) => [
  { level: 'project' as const, override: levels.project },
  { level: 'branch' as const, override: levels.branch },
  { level: 'environment' as const, override: levels.environment },
];

/** What `config pull` writes: every key a file may own that some level sets, with its effective value and that level. */
export interface PulledConfig {
  /** Dotted leaf keys → effective values, sorted by key (the file's content). */
  file: Record<string, unknown>;
  /** The level each key of `file` comes from. */
  levels: Record<string, ConfigLevel>;
  /** Keys set at the environment level that a file cannot own (left out of `file`). */
  environmentOnly: string[];
}

/**
 * The effective configuration a file can own: the leaves set by any level (project, branch,
 * environment, merged in that order), so a pulled file shows the dashboard's switches too.
 * Defaults are left out (an absent key renders as its default).
 */
export function pullConfig(levels: OverrideLevels): PulledConfig {
  const leaves = flattenLeaves(mergeOverrides([levels.project, levels.branch, levels.environment]));
  const origins = configOrigins(layerList(levels));
  const file: Record<string, unknown> = {};
  const levelOf: Record<string, ConfigLevel> = {};
  const environmentOnly: string[] = [];
  for (const path of Object.keys(leaves).sort()) {
    if (!fileMayOwn(path)) {
      if (origins[path] === 'environment') environmentOnly.push(path);
      continue;
    }
    file[path] = leaves[path];
    levelOf[path] = (origins[path] as ConfigLevel | undefined) ?? 'branch';
  }
  return { file, levels: levelOf, environmentOnly };
}

/** One key a push would change: its effective value now and the one the file asks for (`undefined`: absent). */
export interface ConfigChange {
  path: string;
  from: unknown;
  to: unknown;
}

/** What `config push` of `file` would do. */
export interface PushPlan {
  /** Keys whose effective value the file changes. */
  changes: ConfigChange[];
  /** Changes that a higher level shadows (the push alone would leave them as they are), with that level. */
  shadowed: Array<ConfigChange & { level: ConfigLevel }>;
}

/**
 * Compares the effective config now with the one the file asks for (project level, then the
 * file as the branch level), over the keys a file may own. A change to a key that the
 * environment level sets — and would still win after the push — is `shadowed`.
 */
export function planPush(levels: OverrideLevels, file: ConfigOverride): PushPlan {
  const before = flattenLeaves(renderConfig([levels.project, levels.branch, levels.environment]));
  const desired = flattenLeaves(renderConfig([levels.project, file]));
  const after = flattenLeaves(renderConfig([levels.project, file, levels.environment]));
  const origins = configOrigins(layerList(levels));
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const changes: ConfigChange[] = [];
  const shadowed: PushPlan['shadowed'] = [];
  for (const path of [...new Set([...Object.keys(before), ...Object.keys(desired)])].sort()) {
    if (!fileMayOwn(path) || same(before[path], desired[path])) continue;
    const change = { path, from: before[path], to: desired[path] };
    changes.push(change);
    if (origins[path] === 'environment' && !same(after[path], desired[path])) shadowed.push({ ...change, level: 'environment' });
  }
  return { changes, shadowed };
}

/** The diff lines `config push` prints: `~ key: from → to`, `+ key: value`, `- key (was value)`. */
export function formatChanges(changes: readonly ConfigChange[]): string[] {
  const show = (value: unknown) => JSON.stringify(value);
  return changes.map(({ path, from, to }) => {
    if (from === undefined) return `+ ${path}: ${show(to)}`;
    if (to === undefined) return `- ${path} (was ${show(from)})`;
    return `~ ${path}: ${show(from)} → ${show(to)}`;
  });
}
