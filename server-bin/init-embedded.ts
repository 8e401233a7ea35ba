/**
 * `gatehouse init`'s embedded mode: Gatehouse runs inside the app (server-bin/vite.ts,
 * gatehouse-server/next), with its SQLite database in the app's `.gatehouse/` folder. This module
 * creates that database and the app's project in-process (a dashboard owner, the project with
 * password sign-in and localhost trusted, a key set), and installs `gatehouse-server` into the app
 * when it cannot be resolved there.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from './config.ts';
import { createGatehouse } from './index.ts';
import { adminHeaders, createProjectForOwner, dispatchCaller, keysAndDomain } from './init-project.ts';
import { MOUNT_PATH } from './init-scaffold.ts';

/** The embedded database's folder inside the app. */
export const DATA_DIR = '.gatehouse';

/** What the embedded setup made: the project, its keys, and the dashboard owner's sign-in. */
export interface EmbeddedProject {
  projectId: string;
  keys: { publishable_client_key: string; secret_server_key: string };
  owner: { email: string; password: string };
}

/**
 * Creates `<dir>/.gatehouse` with a new Gatehouse database, its dashboard owner (`owner@example.com`
 * with a random password, returned to be printed once) and the app's project `name`, trusting
 * `origin`. @throws ConfigError when the folder already holds a database (its project and keys are
 * then in .env.local, or the folder must be removed).
 */
export async function createEmbeddedProject(dir: string, origin: string, name: string, description: string): Promise<EmbeddedProject> {
  const dataDir = join(dir, DATA_DIR);
  if (existsSync(dataDir))
    throw new ConfigError(
      `${dataDir} already holds a Gatehouse database, but .env.local does not name its project; remove the folder to start over`,
    );
  const internal = {
    publishableClientKey: `pck_${randomBytes(24).toString('hex')}`,
    secretServerKey: `ssk_${randomBytes(24).toString('hex')}`,
    superSecretAdminKey: `sak_${randomBytes(24).toString('hex')}`,
  };
  const gatehouse = await createGatehouse({
    dataDir,
    baseUrl: `${origin}${MOUNT_PATH}`,
    mountPath: MOUNT_PATH,
    seedKeys: internal,
    environment: 'development',
    onFirstStartNotice: false,
  });
  try {
    const call = dispatchCaller(gatehouse);
    const owner = { email: 'owner@example.com', password: randomBytes(12).toString('base64url') };
    await call('POST', '/users', adminHeaders('internal', internal.superSecretAdminKey), {
      primary_email: owner.email,
      primary_email_auth_enabled: true,
      primary_email_verified: true,
      password: owner.password,
    });
    let keys: EmbeddedProject['keys'] | undefined;
    const projectId = await createProjectForOwner(call, internal.superSecretAdminKey, name, async (headers) => {
      keys = await keysAndDomain(call, headers, origin, description);
    });
    return { projectId, keys: keys!, owner };
  } finally {
    await gatehouse.close();
  }
}

/** Whether `gatehouse-server/server` resolves from the app's folder. */
function installed(dir: string): boolean {
  try {
    createRequire(join(dir, 'package.json')).resolve('gatehouse-server/server');
    return true;
  } catch {
    return false;
  }
}

/** The folder of the gatehouse-server package this command runs from (a checkout or an install), if any. */
function ownPackage(): string | undefined {
  let here: string;
  try {
    here = dirname(fileURLToPath(import.meta.url));
  } catch {
    return undefined; // the single executable: no package on disk
  }
  for (let d = here; d !== dirname(d); d = dirname(d)) {
    const manifest = join(d, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'gatehouse-server') return d;
  }
  return undefined;
}

/**
 * Makes `gatehouse-server` resolvable in the app: nothing when it is; otherwise `npm install` of the
 * package this command runs from (a checkout's folder keeps its own node_modules, so npm's link to
 * it resolves every dependency). Returns what was done, or the command to run by hand.
 */
export function ensureServerPackage(dir: string, install: boolean): { installed: boolean; note?: string } {
  if (installed(dir)) return { installed: true };
  const source = ownPackage();
  const command = `npm install ${source ?? '<path to gatehouse-server-<version>.tgz>'}`;
  if (!install || !source) return { installed: false, note: `gatehouse-server is not installed in ${dir}: run ${command}` };
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', source], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status !== 0) return { installed: false, note: `${command} failed:\n${r.stderr}` };
  return { installed: true, note: `installed gatehouse-server from ${source}` };
}
