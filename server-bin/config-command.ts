import { readFile, writeFile } from 'node:fs/promises';
import { ConfigError } from './config.ts';
import { formatChanges, planPush, pullConfig, type OverrideLevels } from '../core/config/file-sync.ts';
import { ConfigOverrideError, migrateOverride, validateOverride } from '../core/config/format.ts';

export const CONFIG_USAGE = `Usage:
  gatehouse config pull --project <id> [--file <path>] [--levels] [--url <url>] [--admin-key <key>]
  gatehouse config push --project <id> [--file <path>] [--dry-run] [--force] [--url <url>] [--admin-key <key>]

A config file holds a project's branch-level configuration (Stack's dotted-key JSON). See
docs/config-as-code.md.

pull  writes the effective value of every key a file may own that is set at any level
      (including switches set in the dashboard, which live at the environment level);
      --levels also prints, per key, the level it comes from. Environment-only keys
      (secrets, trusted domains, email server, OAuth credentials) are never written.
push  prints what the file changes, then replaces the branch level with the file. A change to a
      key that the environment level sets (the dashboard, PATCH /projects/current) would not
      take effect: push refuses and names the keys, unless --force, which removes them from the
      environment level so the file's values apply. An unchanged file writes nothing.

  --project <id>       project id (env STACK_PROJECT_ID)
  --file <path>        the config file (default gatehouse.config.json)
  --levels             pull: print each key's level
  --dry-run            push: print the changes and write nothing
  --force              push: override keys the environment level shadows
  --url <url>          a running Gatehouse (env GATEHOUSE_URL, default http://127.0.0.1:8102)
  --admin-key <key>    the project's super secret admin key (env STACK_SUPER_SECRET_ADMIN_KEY)
`;

interface ConfigCommand {
  action: 'pull' | 'push' | 'help';
  projectId: string;
  file: string;
  url: string;
  adminKey: string;
  levels: boolean;
  dryRun: boolean;
  force: boolean;
}

const VALUE_FLAGS = ['--project', '--file', '--url', '--admin-key'];
const SWITCHES = { pull: ['--levels'], push: ['--dry-run', '--force'] } as const;

/** Parses `gatehouse config …` arguments (flags win over environment variables). */
export function resolveConfigCommand(argv: string[], env: NodeJS.ProcessEnv): ConfigCommand {
  const [action, ...rest] = argv;
  if (action === undefined || action === '--help' || action === '-h' || action === 'help')
    return { action: 'help', projectId: '', file: '', url: '', adminKey: '', levels: false, dryRun: false, force: false };
  if (action !== 'pull' && action !== 'push') throw new ConfigError(`unknown config command "${action}" (expected pull or push)`);
  const flags: Record<string, string> = {};
  const switches = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i]!;
    if ((SWITCHES[action] as readonly string[]).includes(flag)) {
      switches.add(flag);
      continue;
    }
    if (!VALUE_FLAGS.includes(flag)) throw new ConfigError(`unknown option ${flag} for config ${action}`);
    const value = rest[++i];
    if (value === undefined) throw new ConfigError(`${flag} needs a value`);
    flags[flag] = value;
  }
  const projectId = flags['--project'] ?? env.STACK_PROJECT_ID;
  const adminKey = flags['--admin-key'] ?? env.STACK_SUPER_SECRET_ADMIN_KEY;
  if (!projectId) throw new ConfigError('--project is required (or STACK_PROJECT_ID)');
  if (!adminKey) throw new ConfigError('--admin-key is required (or STACK_SUPER_SECRET_ADMIN_KEY)');
  return {
    action,
    projectId,
    adminKey,
    file: flags['--file'] ?? 'gatehouse.config.json',
    url: (flags['--url'] ?? env.GATEHOUSE_URL ?? 'http://127.0.0.1:8102').replace(/\/+$/, ''),
    levels: switches.has('--levels'),
    dryRun: switches.has('--dry-run'),
    force: switches.has('--force'),
  };
}

async function call(cmd: ConfigCommand, method: string, path: string, body?: unknown): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(`${cmd.url}/api/v1${path}`, {
      method,
      headers: {
        'x-stack-project-id': cmd.projectId,
        'x-stack-access-type': 'admin',
        'x-stack-super-secret-admin-key': cmd.adminKey,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (error) {
    throw new ConfigError(`cannot reach ${cmd.url} (${(error as Error).message})`);
  }
  const text = await res.text();
  if (!res.ok) {
    let message = text;
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? text;
    } catch {
      /* plain text answer */
    }
    throw new ConfigError(`the server answered ${res.status}: ${message.split('\n')[0]}`);
  }
  return JSON.parse(text);
}

async function readLevels(cmd: ConfigCommand): Promise<OverrideLevels & { sourceType: string }> {
  const level = async (name: string) =>
    JSON.parse(((await call(cmd, 'GET', `/internal/config/override/${name}`)) as { config_string: string }).config_string) as Record<
      string,
      unknown
    >;
  const [project, branch, environment, source] = await Promise.all([
    level('project'),
    level('branch'),
    level('environment'),
    call(cmd, 'GET', '/internal/config/source'),
  ]);
  return { project, branch, environment, sourceType: (source as { source: { type: string } }).source.type };
}

/** Where a level's values come from, in words. */
const LEVEL_WORDS = {
  project: 'project (all branches)',
  branch: "branch (a config file, or the project's starting values)",
  environment: 'environment (the dashboard or PATCH /projects/current)',
} as const;

/** Output streams (tests pass their own). */
export interface ConfigIo {
  out: (text: string) => void;
  err: (text: string) => void;
}
const processIo: ConfigIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

/**
 * `gatehouse config pull|push` (docs/config-as-code.md): the file-based config workflow over the
 * admin API (`GET /internal/config/override/{level}`, `POST …/environment/reset-keys` for
 * `--force`, `PUT /internal/config/override/branch` with source `pushed-from-unknown`).
 *
 * @throws ConfigError (one line) for bad flags, an unreachable server, an error answer, or a push
 *   that changes keys shadowed by the environment level without `--force`.
 */
export async function runConfigCommand(argv: string[], env: NodeJS.ProcessEnv, io: ConfigIo = processIo): Promise<void> {
  const cmd = resolveConfigCommand(argv, env);
  if (cmd.action === 'help') {
    io.out(CONFIG_USAGE);
    return;
  }
  const levels = await readLevels(cmd);
  if (cmd.action === 'pull') {
    const pulled = pullConfig(levels);
    await writeFile(cmd.file, `${JSON.stringify(pulled.file, null, 2)}\n`);
    if (cmd.levels) {
      const width = Math.max(0, ...Object.keys(pulled.file).map((k) => k.length));
      for (const [key, value] of Object.entries(pulled.file))
        io.out(`${key.padEnd(width)}  ${pulled.levels[key]!.padEnd(11)}  ${JSON.stringify(value)}\n`);
    }
    const fromEnv = Object.values(pulled.levels).filter((l) => l === 'environment').length;
    io.err(
      `Wrote ${Object.keys(pulled.file).length} keys of project ${cmd.projectId} to ${cmd.file} (effective values; unset keys take their defaults).\n`,
    );
    if (fromEnv > 0)
      io.err(
        `${fromEnv} of them are set at the ${LEVEL_WORDS.environment} level, which overrides the file: change them in the dashboard, hand them back to the file there, or push with --force.\n`,
      );
    if (pulled.environmentOnly.length > 0)
      io.err(
        `Left out ${pulled.environmentOnly.length} environment-only keys a file cannot hold (secrets, trusted domains, email server, OAuth credentials).\n`,
      );
    return;
  }
  let text: string;
  try {
    text = await readFile(cmd.file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read ${cmd.file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch {
    throw new ConfigError(`${cmd.file} is not valid JSON`);
  }
  if (typeof file !== 'object' || file === null || Array.isArray(file)) throw new ConfigError(`${cmd.file} must hold a JSON object`);
  try {
    validateOverride(file, 'branch');
    file = migrateOverride(file, 'branch');
  } catch (error) {
    if (error instanceof ConfigOverrideError) throw new ConfigError(`${cmd.file}: ${error.message}`);
    throw error;
  }
  const plan = planPush(levels, file as Record<string, unknown>);
  if (plan.changes.length === 0) {
    io.err(`No changes: ${cmd.file} matches the effective config of project ${cmd.projectId}; nothing pushed.\n`);
    return;
  }
  io.out(
    `Changes to project ${cmd.projectId}:\n${formatChanges(plan.changes)
      .map((l) => `  ${l}\n`)
      .join('')}`,
  );
  const shadowed = plan.shadowed.map((s) => s.path);
  if (shadowed.length > 0) {
    io.out(`Shadowed by the ${LEVEL_WORDS.environment} level: ${shadowed.join(', ')}\n`);
  }
  if (cmd.dryRun) {
    io.err('Dry run: nothing pushed.\n');
    return;
  }
  if (shadowed.length > 0 && !cmd.force) {
    throw new ConfigError(
      `refused: ${shadowed.join(', ')} ${shadowed.length === 1 ? 'is' : 'are'} set at the environment level (the dashboard), which overrides the file; hand ${shadowed.length === 1 ? 'it' : 'them'} back to the file in the dashboard (Configuration) or push with --force`,
    );
  }
  // Validation first (a bad file changes nothing), then the environment keys the file takes over.
  await call(cmd, 'PUT', '/internal/config/override/branch', { config_string: text, source: { type: 'pushed-from-unknown' } });
  if (shadowed.length > 0) await call(cmd, 'POST', '/internal/config/override/environment/reset-keys', { keys: shadowed });
  io.err(
    `Pushed ${cmd.file} to project ${cmd.projectId} (${plan.changes.length} change${plan.changes.length === 1 ? '' : 's'}${shadowed.length > 0 ? `; removed ${shadowed.length} environment-level key${shadowed.length === 1 ? '' : 's'}` : ''}).\n`,
  );
}
