import { readFile, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { ConfigError } from './config.ts';

export const INIT_USAGE = `Usage: gatehouse init [--url <url>] [--admin-key <key>] [--project <id>] [--dir <path>] [--framework vite|next|node] [--name <name>] [--print]

Connects the app in the current folder (or --dir) to a running Gatehouse in one step:
  1. detects the framework from package.json (Vite, Next.js, or plain Node);
  2. picks the project --project (with that project's admin key), or creates one for the
     dashboard's owner (with the internal project's admin key, printed at the server's first start);
  3. creates a key set and trusts the app's dev origin (http://localhost:5173 for Vite,
     http://localhost:3000 otherwise) in the project's domains;
  4. writes the project id and keys to .env.local with the framework's names (Vite VITE_…,
     Next.js NEXT_PUBLIC_… for the publishable values; the secret server key never gets a public
     prefix), or prints them with --print;
  5. prints the lines of code to paste.

  --url <url>          the Gatehouse (env GATEHOUSE_URL, default http://127.0.0.1:8102)
  --admin-key <key>    admin key (env GATEHOUSE_ADMIN_KEY, else STACK_SUPER_SECRET_ADMIN_KEY)
  --project <id>       use this project instead of creating one (env STACK_PROJECT_ID unless internal)
  --dir <path>         the app's folder (default: the current folder)
  --framework <name>   vite, next or node (default: detected)
  --name <name>        the new project's name (default: package.json's name)
  --print              print the environment lines instead of writing .env.local
`;

/** The app kinds `init` knows, with their env names, dev origin and code lines. */
export type Framework = 'vite' | 'next' | 'node';

interface InitCommand {
  url: string;
  adminKey: string;
  projectId: string | undefined;
  dir: string;
  framework: Framework | undefined;
  name: string | undefined;
  print: boolean;
}

const VALUE_FLAGS = ['--url', '--admin-key', '--project', '--dir', '--framework', '--name'];

/** Parses `gatehouse init …` arguments (flags win over environment variables). */
export function resolveInitCommand(argv: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): InitCommand {
  const flags: Record<string, string> = {};
  let print = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--print') {
      print = true;
      continue;
    }
    if (!VALUE_FLAGS.includes(flag)) throw new ConfigError(`unknown option ${flag} for init (see gatehouse init --help)`);
    const value = argv[++i];
    if (value === undefined) throw new ConfigError(`${flag} needs a value`);
    flags[flag] = value;
  }
  const framework = flags['--framework'];
  if (framework !== undefined && framework !== 'vite' && framework !== 'next' && framework !== 'node')
    throw new ConfigError(`unknown framework "${framework}" (expected vite, next or node)`);
  const adminKey = flags['--admin-key'] ?? env.GATEHOUSE_ADMIN_KEY ?? env.STACK_SUPER_SECRET_ADMIN_KEY;
  if (!adminKey)
    throw new ConfigError(
      "--admin-key is required (or GATEHOUSE_ADMIN_KEY): the internal project's admin key printed at the server's first start, or with --project that project's admin key",
    );
  const envProject = env.STACK_PROJECT_ID && env.STACK_PROJECT_ID !== 'internal' ? env.STACK_PROJECT_ID : undefined;
  return {
    url: (flags['--url'] ?? env.GATEHOUSE_URL ?? 'http://127.0.0.1:8102').replace(/\/+$/, ''),
    adminKey,
    projectId: flags['--project'] ?? envProject,
    dir: resolve(cwd, flags['--dir'] ?? '.'),
    framework: framework as Framework | undefined,
    name: flags['--name'],
    print,
  };
}

/** The framework of a package.json: `next` or `vite` among its dependencies, else plain Node. */
export function detectFramework(pkg: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> }): Framework {
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  if ('next' in deps) return 'next';
  if ('vite' in deps) return 'vite';
  return 'node';
}

/** What `init` writes and prints for one framework. */
export const FRAMEWORKS: Record<Framework, { label: string; publicPrefix: string; devOrigin: string; read: (name: string) => string }> = {
  vite: { label: 'Vite', publicPrefix: 'VITE_', devOrigin: 'http://localhost:5173', read: (name) => `import.meta.env.${name}` },
  next: { label: 'Next.js', publicPrefix: 'NEXT_PUBLIC_', devOrigin: 'http://localhost:3000', read: (name) => `process.env.${name}` },
  node: { label: 'Node', publicPrefix: '', devOrigin: 'http://localhost:3000', read: (name) => `process.env.${name}` },
};

/** The environment lines for a project: the public values under the framework's prefix, the secret server key never. */
export function envLines(
  framework: Framework,
  values: { baseUrl: string; projectId: string; publishableClientKey: string; secretServerKey: string },
): Record<string, string> {
  const p = FRAMEWORKS[framework].publicPrefix;
  return {
    [`${p}STACK_API_URL`]: values.baseUrl,
    [`${p}STACK_PROJECT_ID`]: values.projectId,
    [`${p}STACK_PUBLISHABLE_CLIENT_KEY`]: values.publishableClientKey,
    STACK_SECRET_SERVER_KEY: values.secretServerKey,
  };
}

/** The lines to paste: an SDK app built from the env names `init` wrote. */
export function codeLines(framework: Framework): string[] {
  const f = FRAMEWORKS[framework];
  const v = (name: string) => f.read(`${f.publicPrefix}${name}`);
  if (framework === 'node') {
    return [
      "import { ServerApp } from 'gatehouse-sdk';",
      `const gatehouse = new ServerApp({ baseUrl: ${v('STACK_API_URL')}, projectId: ${v('STACK_PROJECT_ID')}, secretServerKey: process.env.STACK_SECRET_SERVER_KEY, tokenStore: null });`,
      'const user = await gatehouse.getUserFromTokens({ headers: request.headers }); // in a request handler',
    ];
  }
  return [
    "import { ClientApp } from 'gatehouse-sdk';",
    `export const app = new ClientApp({ baseUrl: ${v('STACK_API_URL')}, projectId: ${v('STACK_PROJECT_ID')}, publishableClientKey: ${v('STACK_PUBLISHABLE_CLIENT_KEY')} });`,
    "// then <GatehouseProvider app={app}> … <SignIn /> … <UserButton /> … </GatehouseProvider> from 'gatehouse-react'",
  ];
}

/** Sets `values` in a dotenv text: existing lines with those names are replaced in place, new names appended. */
export function mergeDotenv(text: string, values: Record<string, string>): string {
  const left = new Map(Object.entries(values));
  const lines =
    text === ''
      ? []
      : text
          .replace(/\n$/, '')
          .split('\n')
          .map((line) => {
            const name = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1];
            if (name === undefined || !left.has(name)) return line;
            const value = left.get(name)!;
            left.delete(name);
            return `${name}=${value}`;
          });
  for (const [name, value] of left) lines.push(`${name}=${value}`);
  return `${lines.join('\n')}\n`;
}

type Caller = (method: string, path: string, headers: Record<string, string>, body?: unknown) => Promise<any>;

function httpCaller(url: string): Caller {
  return async (method, path, headers, body) => {
    let res: Response;
    try {
      res = await fetch(`${url}/api/v1${path}`, {
        method,
        headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      throw new ConfigError(`cannot reach ${url} (${(error as Error).message}); start it with \`gatehouse\` or set GATEHOUSE_URL`);
    }
    const text = await res.text();
    if (!res.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {
        /* plain text answer */
      }
      throw new ConfigError(`${method} ${path}: the server answered ${res.status}: ${message.split('\n')[0]}`);
    }
    return text === '' ? {} : JSON.parse(text);
  };
}

const adminHeaders = (projectId: string, key: string) => ({
  'x-stack-project-id': projectId,
  'x-stack-access-type': 'admin',
  'x-stack-super-secret-admin-key': key,
});

/**
 * Creates a project owned by the dashboard's first owner (the internal project's oldest user),
 * through a short impersonation session that the internal admin key may open, ended afterwards.
 *
 * @returns the new project's id and an admin caller's headers for it (the session's token).
 * @throws ConfigError when the dashboard has no owner yet.
 */
async function createProjectForOwner(
  call: Caller,
  adminKey: string,
  name: string,
  run: (headers: Record<string, string>, projectId: string) => Promise<void>,
): Promise<string> {
  const internal = adminHeaders('internal', adminKey);
  const users = (await call('GET', '/users?limit=1&order_by=signed_up_at', internal)) as {
    items: Array<{ id: string; selected_team_id: string | null }>;
  };
  const owner = users.items[0];
  if (!owner)
    throw new ConfigError(
      'the dashboard has no owner yet: open the dashboard, sign up (the first account owns it), then run gatehouse init again',
    );
  const session = (await call('POST', '/auth/sessions', internal, {
    user_id: owner.id,
    expires_in_millis: 10 * 60_000,
    is_impersonation: true,
  })) as { access_token: string; refresh_token: string };
  try {
    let teamId = owner.selected_team_id;
    if (!teamId) {
      const teams = (await call('GET', `/teams?user_id=${encodeURIComponent(owner.id)}`, internal)) as { items: Array<{ id: string }> };
      teamId = teams.items[0]?.id ?? null;
    }
    if (!teamId)
      throw new ConfigError('the dashboard owner has no team to own a new project; create the project in the dashboard and pass --project');
    const asOwner = { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client', 'x-stack-access-token': session.access_token };
    const project = (await call('POST', '/internal/projects', asOwner, {
      display_name: name,
      owner_team_id: teamId,
      config: { credential_enabled: true, allow_localhost: true },
    })) as { id: string };
    await run(
      { 'x-stack-project-id': project.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': session.access_token },
      project.id,
    );
    return project.id;
  } finally {
    await call('DELETE', '/auth/sessions/current', {
      ...internal,
      'x-stack-access-token': session.access_token,
      'x-stack-refresh-token': session.refresh_token,
    }).catch(() => undefined);
  }
}

/** Creates a key set and adds `origin` to the project's trusted domains (kept when already there). */
async function keysAndDomain(call: Caller, headers: Record<string, string>, origin: string, description: string) {
  const keys = (await call('POST', '/internal/api-keys', headers, {
    description,
    expires_at_millis: null,
    has_publishable_client_key: true,
    has_secret_server_key: true,
    has_super_secret_admin_key: false,
  })) as { publishable_client_key: string; secret_server_key: string };
  const project = (await call('GET', '/internal/projects/current', headers)) as {
    config: { domains: Array<{ domain: string; handler_path: string }> };
  };
  const domains = project.config.domains;
  if (!domains.some((d) => d.domain === origin)) {
    await call('PATCH', '/internal/projects/current', headers, {
      config: { domains: [...domains, { domain: origin, handler_path: '/handler' }] },
    });
  }
  return keys;
}

/** Output streams (tests pass their own). */
export interface InitIo {
  out: (text: string) => void;
  err: (text: string) => void;
}
const processIo: InitIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

/**
 * `gatehouse init` (README "Connect an app in one command"): see {@link INIT_USAGE}. Talks to a
 * running Gatehouse over its admin API (`POST /internal/projects`, `POST /internal/api-keys`,
 * `PATCH /internal/projects/current`).
 *
 * @returns what was set up (tests read the keys from here).
 * @throws ConfigError (one line) for bad flags, a missing package.json, an unreachable server or
 *   an error answer.
 */
export async function runInitCommand(argv: string[], env: NodeJS.ProcessEnv, io: InitIo = processIo, cwd = process.cwd()) {
  const cmd = resolveInitCommandOrHelp(argv, env, cwd, io);
  if (!cmd) return null;
  let pkg: { name?: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  try {
    pkg = JSON.parse(await readFile(join(cmd.dir, 'package.json'), 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `no readable package.json in ${cmd.dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); run gatehouse init in your app's folder`,
    );
  }
  const framework = cmd.framework ?? detectFramework(pkg);
  const f = FRAMEWORKS[framework];
  const call = httpCaller(cmd.url);
  const description = `gatehouse init (${f.label} app ${pkg.name ?? basename(cmd.dir)})`;
  let keys: { publishable_client_key: string; secret_server_key: string } | undefined;
  let projectId: string;
  if (cmd.projectId) {
    projectId = cmd.projectId;
    keys = await keysAndDomain(call, adminHeaders(projectId, cmd.adminKey), f.devOrigin, description);
  } else {
    projectId = await createProjectForOwner(call, cmd.adminKey, cmd.name ?? pkg.name ?? basename(cmd.dir), async (headers) => {
      keys = await keysAndDomain(call, headers, f.devOrigin, description);
    });
  }
  const values = envLines(framework, {
    baseUrl: cmd.url,
    projectId,
    publishableClientKey: keys!.publishable_client_key,
    secretServerKey: keys!.secret_server_key,
  });
  const envText = Object.entries(values)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
  io.err(`${f.label} app detected; project ${projectId} on ${cmd.url}; trusted ${f.devOrigin}.\n`);
  if (cmd.print) {
    io.out(`${envText}\n`);
  } else {
    const file = join(cmd.dir, '.env.local');
    let existing = '';
    try {
      existing = await readFile(file, 'utf8');
    } catch {
      /* a new file */
    }
    await writeFile(file, mergeDotenv(existing, values), { mode: 0o600 });
    io.err(`Wrote ${Object.keys(values).join(', ')} to ${file} (keep it out of version control: it holds the secret server key).\n`);
  }
  io.out(`\nPaste into your app:\n\n${codeLines(framework).join('\n')}\n`);
  return { framework, projectId, env: values };
}

function resolveInitCommandOrHelp(argv: string[], env: NodeJS.ProcessEnv, cwd: string, io: InitIo): InitCommand | null {
  if (argv.some((a) => a === '--help' || a === '-h' || a === 'help')) {
    io.out(INIT_USAGE);
    return null;
  }
  return resolveInitCommand(argv, env, cwd);
}
