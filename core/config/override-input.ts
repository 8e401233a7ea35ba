import * as v from 'valibot';
import { StatusError } from '../errors/index.ts';
import { JsonTextError, parseJsonText } from '../lib/json-text.ts';
import type { AccessType } from '../operations/define.ts';
import { ConfigOverrideError, migrateOverride, validateOverride, type ConfigOverride } from './format.ts';
import type { ConfigLevel } from './schema.ts';

/** `{level}` of the override routes. */
export const OverrideLevelParamsSchema = v.strictObject({ level: v.picklist(['project', 'branch', 'environment']) });

/** Upstream `branchConfigSourceSchema`: where a branch's config was pushed from. */
export const BranchConfigSourceSchema = v.variant('type', [
  v.strictObject({
    type: v.literal('pushed-from-github'),
    owner: v.string(),
    repo: v.string(),
    branch: v.string(),
    commit_hash: v.string(),
    config_file_path: v.string(),
  }),
  v.strictObject({ type: v.literal('pushed-from-unknown') }),
  v.strictObject({ type: v.literal('unlinked') }),
]);

/**
 * Upstream's access rule for the override routes: a server key may manage the branch level only.
 *
 * @throws StatusError 403 "Server access can only manage branch config overrides."
 */
export function assertLevelAccess(accessType: AccessType, level: ConfigLevel): void {
  if (accessType === 'server' && level !== 'branch')
    throw new StatusError('forbidden', 'Server access can only manage branch config overrides.');
}

/**
 * Parses a `config_string` / `config_override_string`, migrates renamed keys and validates it
 * for `level`.
 *
 * @throws StatusError 400 "Invalid config JSON", 400 "Invalid config JSON: … nested too deeply …"
 * (core/lib/json-text.ts parseJsonText's bound), or 400 naming the offending
 * key (upstream's plain-text answers of `internal/config/override/[level]`).
 */
export function parseOverrideString(text: string, level: ConfigLevel): ConfigOverride {
  let parsed: unknown;
  try {
    parsed = parseJsonText(text);
  } catch (error) {
    if (error instanceof JsonTextError && error.reason !== 'syntax')
      throw new StatusError('bad-request', `Invalid config JSON: ${error.message}`);
    throw new StatusError('bad-request', 'Invalid config JSON');
  }
  try {
    validateOverride(parsed, level);
    const migrated = migrateOverride(parsed, level);
    validateOverride(migrated, level);
    return migrated;
  } catch (e) {
    if (e instanceof ConfigOverrideError) throw new StatusError('bad-request', e.message);
    throw e;
  }
}
