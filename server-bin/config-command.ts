import { readFile, writeFile } from 'node:fs/promises';
import { ConfigError } from './config.ts';

export const CONFIG_USAGE = `Usage:
  gatehouse config pull --project <id> --file <path> [--url <url>] [--admin-key <key>]
  gatehouse config push --project <id> --file <path> [--url <url>] [--admin-key <key>]

Pull writes the project's branch-level config override (Stack's dotted-key JSON) to the file;
push replaces the branch-level override with the file's content, marked as pushed from a file
(the dashboard shows the source). Environment-level values (secrets, trusted domains, email
server, OAuth credentials, and values set through the project settings) stay where they are
and still take precedence.

  --project <id>       project id (env STACK_PROJECT_ID)
  --file <path>        the config file (default gatehouse.config.json)
  --url <url>          a running Gatehouse (env GATEHOUSE_URL, default http://127.0.0.1:8102)
  --admin-key <key>    the project's super secret admin key (env STACK_SUPER_SECRET_ADMIN_KEY)
`;

interface ConfigCommand {
  action: 'pull' | 'push' | 'help';
  projectId: string;
  file: string;
  url: string;
  adminKey: string;
}

/** Parses `gatehouse config …` arguments (flags win over environment variables). */
export function resolveConfigCommand(argv: string[], env: NodeJS.ProcessEnv): ConfigCommand {
  const [action, ...rest] = argv;
  if (action === undefined || action === '--help' || action === 'help') return { action: 'help', projectId: '', file: '', url: '', adminKey: '' };
  if (action !== 'pull' && action !== 'push') throw new ConfigError(`unknown config command "${action}" (expected pull or push)`);
  const flags: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i]!;
    if (!['--project', '--file', '--url', '--admin-key'].includes(flag)) throw new ConfigError(`unknown option ${flag} for config ${action}`);
    const value = rest[++i];
    if (value === undefined) throw new ConfigError(`${flag} needs a value`);
    flags[flag] = value;
  }
  const projectId = flags['--project'] ?? env.STACK_PROJECT_ID;
  const adminKey = flags['--admin-key'] ?? env.STACK_SUPER_SECRET_ADMIN_KEY;
  if (!projectId) throw new ConfigError('--project is required (or STACK_PROJECT_ID)');
  if (!adminKey) throw new ConfigError('--admin-key is required (or STACK_SUPER_SECRET_ADMIN_KEY)');
  return {
    action, projectId, adminKey,
    file: flags['--file'] ?? 'gatehouse.config.json',
    url: (flags['--url'] ?? env.GATEHOUSE_URL ?? 'http://127.0.0.1:8102').replace(/\/+$/, ''),
  };
}

async function call(cmd: ConfigCommand, method: string, body?: unknown): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(`${cmd.url}/api/v1/internal/config/override/branch`, {
      method,
      headers: {
        'x-stack-project-id': cmd.projectId, 'x-stack-access-type': 'admin', 'x-stack-super-secret-admin-key': cmd.adminKey,
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
    try { message = (JSON.parse(text) as { error?: string }).error ?? text; } catch { /* plain text answer */ }
    throw new ConfigError(`the server answered ${res.status}: ${message.split('\n')[0]}`);
  }
  return JSON.parse(text);
}

/**
 * `gatehouse config pull|push`: the file-based config workflow over the admin API
 * (`GET` / `PUT /internal/config/override/branch`, source `pushed-from-unknown`).
 */
export async function runConfigCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const cmd = resolveConfigCommand(argv, env);
  if (cmd.action === 'help') { process.stdout.write(CONFIG_USAGE); return; }
  if (cmd.action === 'pull') {
    const { config_string } = await call(cmd, 'GET') as { config_string: string };
    await writeFile(cmd.file, `${JSON.stringify(JSON.parse(config_string), null, 2)}\n`);
    process.stderr.write(`Wrote the branch config of project ${cmd.projectId} to ${cmd.file}.\n`);
    return;
  }
  let text: string;
  try {
    text = await readFile(cmd.file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read ${cmd.file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try { JSON.parse(text); } catch { throw new ConfigError(`${cmd.file} is not valid JSON`); }
  await call(cmd, 'PUT', { config_string: text, source: { type: 'pushed-from-unknown' } });
  process.stderr.write(`Pushed ${cmd.file} to the branch config of project ${cmd.projectId}.\n`);
}
