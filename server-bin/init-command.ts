import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { ConfigError } from './config.ts';
import { DATA_DIR, createEmbeddedProject, ensureServerPackage } from './init-embedded.ts';
import { adminHeaders, createProjectForOwner, httpCaller, keysAndDomain } from './init-project.ts';
import { MOUNT_PATH, scaffold } from './init-scaffold.ts';

export const INIT_USAGE = `Usage: gatehouse init [--url <url>] [--admin-key <key>] [--project <id>] [--dir <path>] [--framework vite|next|node] [--name <name>] [--port <n>] [--print] [--no-install]

Without --url, GATEHOUSE_URL or an admin key (embedded mode, the usual start): Gatehouse runs
inside the app under /auth, with its database in .gatehouse/. In a Vite (React) or Next.js app,
init creates the project there, writes .env.local, installs gatehouse-server when the app does not
have it (from this checkout or package; --no-install to skip), and writes the sign-in wiring:
  Vite     the gatehouse() plugin in vite.config.js, src/gatehouse.jsx, <GatehouseRoot> in main.jsx
           (the app shows sign-in / sign-up until signed in)
  Next.js  app/auth/[...gatehouse]/route.js, app/handler/[...page]/route.js (/handler/sign-in, …),
           app/account/page.jsx (the signed-in page), lib/gatehouse.js
Then \`npm run dev\` signs users in. Existing files are never overwritten.

With a running server (--url / GATEHOUSE_URL and an admin key), init connects the app to it:
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
  --port <n>           the app's dev server port, trusted as http://localhost:<n> (default 5173 for
                       Vite, 3000 otherwise); hosted pages return there when no page asked for sign-in
  --print              print the environment lines instead of writing .env.local
  --no-install         embedded mode: do not install gatehouse-server into the app
`;

/** The app kinds `init` knows, with their env names, dev origin and code lines. */
export type Framework = 'vite' | 'next' | 'node';

interface InitCommand {
  /** Embedded: Gatehouse inside the app (no server URL and no admin key given). */
  embedded: boolean;
  install: boolean;
  url: string;
  adminKey: string;
  projectId: string | undefined;
  dir: string;
  framework: Framework | undefined;
  name: string | undefined;
  port: number | undefined;
  print: boolean;
}

const VALUE_FLAGS = ['--url', '--admin-key', '--project', '--dir', '--framework', '--name', '--port'];

/** Parses `gatehouse init …` arguments (flags win over environment variables). */
export function resolveInitCommand(argv: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): InitCommand {
  const flags: Record<string, string> = {};
  let print = false;
  let install = true;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--print') {
      print = true;
      continue;
    }
    if (flag === '--no-install') {
      install = false;
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
  const url = flags['--url'] ?? env.GATEHOUSE_URL;
  const embedded = !url && !adminKey;
  if (!adminKey && !embedded)
    throw new ConfigError(
      "--admin-key is required (or GATEHOUSE_ADMIN_KEY): the internal project's admin key printed at the server's first start, or with --project that project's admin key",
    );
  const envProject = env.STACK_PROJECT_ID && env.STACK_PROJECT_ID !== 'internal' ? env.STACK_PROJECT_ID : undefined;
  return {
    embedded,
    install,
    url: (url ?? 'http://127.0.0.1:8102').replace(/\/+$/, ''),
    adminKey: adminKey ?? '',
    projectId: flags['--project'] ?? envProject,
    dir: resolve(cwd, flags['--dir'] ?? '.'),
    framework: framework as Framework | undefined,
    name: flags['--name'],
    port: parsePort(flags['--port']),
    print,
  };
}

function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ConfigError(`--port must be a port number, not "${value}"`);
  return port;
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
export function codeLines(framework: Framework, embedded = false): string[] {
  const f = FRAMEWORKS[framework];
  if (embedded) {
    // Only plain Node apps reach here in embedded mode (Vite and Next.js get files written).
    return [
      "import { createGatehouse, createUserReader } from 'gatehouse-server/server';",
      "const gatehouse = await createGatehouse({ dataDir: '.gatehouse', baseUrl: 'http://localhost:3000/auth', mountPath: '/auth' });",
      'const getUser = createUserReader(gatehouse, { projectId: process.env.STACK_PROJECT_ID, secretServerKey: process.env.STACK_SECRET_SERVER_KEY });',
      "// node:http: (req, res) => req.url.startsWith('/auth') ? gatehouse.handler(req, res) : …; then `await getUser(req)`",
    ];
  }
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

/** Output streams (tests pass their own). */
export interface InitIo {
  out: (text: string) => void;
  err: (text: string) => void;
}
const processIo: InitIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

/**
 * `gatehouse init` (README "Connect an app in one command"): see {@link INIT_USAGE}. Embedded mode
 * (no server URL, no admin key) creates the project in the app's own `.gatehouse/` database
 * in-process (server-bin/init-embedded.ts) and writes the app's sign-in wiring
 * (server-bin/init-scaffold.ts); otherwise it talks to a running Gatehouse over its admin API
 * (`POST /internal/projects`, `POST /internal/api-keys`, `PATCH /internal/projects/current`).
 *
 * @returns what was set up (tests read the keys from here).
 * @throws ConfigError (one line) for bad flags, a missing package.json, an unreachable server,
 *   an error answer, or an embedded database whose project .env.local does not name.
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
  const f = { ...FRAMEWORKS[framework] };
  if (cmd.port !== undefined) f.devOrigin = `http://localhost:${cmd.port}`;
  const description = `gatehouse init (${f.label} app ${pkg.name ?? basename(cmd.dir)})`;
  const name = cmd.name ?? pkg.name ?? basename(cmd.dir);
  const envFile = join(cmd.dir, '.env.local');
  let existing = '';
  try {
    existing = await readFile(envFile, 'utf8');
  } catch {
    /* a new file */
  }
  let values: Record<string, string>;
  let projectId: string;
  if (cmd.embedded) {
    const known = parseDotenv(existing);
    const p = f.publicPrefix;
    if (known[`${p}STACK_PROJECT_ID`] && known.STACK_SECRET_SERVER_KEY && existsSync(join(cmd.dir, DATA_DIR))) {
      projectId = known[`${p}STACK_PROJECT_ID`]!;
      values = {};
      io.err(`${f.label} app detected; project ${projectId} already in ${DATA_DIR}/ and .env.local.\n`);
    } else {
      const made = await createEmbeddedProject(cmd.dir, f.devOrigin, name, description);
      projectId = made.projectId;
      values = embeddedEnvLines(framework, made.projectId, made.keys);
      io.err(
        `${f.label} app detected; Gatehouse runs inside it under ${MOUNT_PATH} (database ${DATA_DIR}/); project ${projectId}.\n` +
          `Dashboard: ${f.devOrigin}${MOUNT_PATH}/ (sign in as ${made.owner.email}, password ${made.owner.password}; shown once).\n`,
      );
    }
  } else {
    const call = httpCaller(cmd.url);
    let keys: { publishable_client_key: string; secret_server_key: string } | undefined;
    if (cmd.projectId) {
      projectId = cmd.projectId;
      keys = await keysAndDomain(call, adminHeaders(projectId, cmd.adminKey), f.devOrigin, description);
    } else {
      projectId = await createProjectForOwner(call, cmd.adminKey, name, async (headers) => {
        keys = await keysAndDomain(call, headers, f.devOrigin, description);
      });
    }
    values = envLines(framework, {
      baseUrl: cmd.url,
      projectId,
      publishableClientKey: keys!.publishable_client_key,
      secretServerKey: keys!.secret_server_key,
    });
    io.err(`${f.label} app detected; project ${projectId} on ${cmd.url}; trusted ${f.devOrigin}.\n`);
  }
  const envText = Object.entries(values)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
  if (cmd.print) {
    io.out(`${envText}\n`);
  } else if (Object.keys(values).length) {
    await writeFile(envFile, mergeDotenv(existing, values), { mode: 0o600 });
    io.err(`Wrote ${Object.keys(values).join(', ')} to ${envFile} (keep it out of version control: it holds the secret server key).\n`);
  }
  if (cmd.embedded && framework !== 'node') {
    const pkgState = ensureServerPackage(cmd.dir, cmd.install);
    if (pkgState.note) io.err(`${pkgState.note}\n`);
    const done = await scaffold(cmd.dir, framework);
    if (done.written.length) io.err(`Wrote ${done.written.join(', ')}.\n`);
    if (done.kept.length) io.err(`Kept (already there): ${done.kept.join(', ')}.\n`);
    if (done.manual.length) io.out(`\nBy hand:\n${done.manual.map((m) => `  ${m}`).join('\n')}\n`);
    const signIn = framework === 'next' ? `${f.devOrigin}/account` : `${f.devOrigin}/`;
    io.out(`\nDone. Run \`npm run dev\` and open ${signIn} to sign up and sign in.\n`);
  } else {
    io.out(`\nPaste into your app:\n\n${codeLines(framework, cmd.embedded).join('\n')}\n`);
  }
  return { framework, projectId, env: values };
}

/** The environment lines of embedded mode: no API URL (the app's own origin serves it). */
function embeddedEnvLines(framework: Framework, projectId: string, keys: { publishable_client_key: string; secret_server_key: string }) {
  const p = FRAMEWORKS[framework].publicPrefix;
  return {
    [`${p}STACK_PROJECT_ID`]: projectId,
    [`${p}STACK_PUBLISHABLE_CLIENT_KEY`]: keys.publishable_client_key,
    STACK_SECRET_SERVER_KEY: keys.secret_server_key,
  };
}

/** The `NAME=value` lines of a dotenv text (no quoting rules beyond what mergeDotenv writes). */
function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!.trim();
  }
  return out;
}

function resolveInitCommandOrHelp(argv: string[], env: NodeJS.ProcessEnv, cwd: string, io: InitIo): InitCommand | null {
  if (argv.some((a) => a === '--help' || a === '-h' || a === 'help')) {
    io.out(INIT_USAGE);
    return null;
  }
  return resolveInitCommand(argv, env, cwd);
}
