// npm run bench:import — importing 100,000 users with `gatehouse import`, on SQLite and on
// PostgreSQL. For each database: builds the server bundle when stale (dist/server/cli.js), starts it as its own
// process on a fresh database (a data dir, or a new PostgreSQL database), creates a dashboard
// owner, a project and its admin key through the API, then runs the import command in this process
// against it on an NDJSON file of BENCH_USERS users (email, verified flag, metadata, a bcrypt hash:
// hashes are stored as imported and verified only at sign-in, so a few distinct ones suffice), 1 in
// 10 of them members of one of 100 imported teams, while sampling the server process's resident
// memory (/proc/<pid>/status VmRSS) every 100 ms and its CPU time. Then signs one user in.
// Targets: ≥ 5,000 users/s on SQLite, ≥ 2,000 users/s on PostgreSQL, server RSS < 250 MB and flat.
// Prints one line per database (users/s, RSS peak per half, CPU, load) and a Markdown section;
// with --write, replaces the "bench:import" block of docs/benchmarks.md.
// Env: BENCH_USERS (default 100000), BENCH_DIALECTS (default "sqlite,postgres"),
// TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_SERVER_NODE_OPTIONS (node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
import { randomBytes, randomUUID } from 'node:crypto';
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import bcrypt from 'bcryptjs';
import pg from 'pg';
import { writeDocSection } from './doc-section.mjs';
// @ts-expect-error -- plain ESM build script without type declarations
import { SERVER_BUNDLE, ensureLibBuilt } from '../build-lib.mjs';
import { runImportCommand } from '../../server-bin/import-command.ts';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',').map((d) => d.trim()) as Array<'sqlite' | 'postgres'>;
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TEAMS = 100;
const REPO = join(dirname(new URL(import.meta.url).pathname), '..', '..');
const KEYS = {
  publishableClientKey: 'pck_bench_internal_publishable_key_0123456789abcdefghijk',
  secretServerKey: 'ssk_bench_internal_secret_server_key_0123456789abcdefghij',
  superSecretAdminKey: 'sak_bench_internal_super_secret_admin_key_0123456789abcd',
};
const mb = (bytes: number) => bytes / 2 ** 20;

interface DialectResult {
  dialect: string;
  seconds: number;
  perSecond: number;
  created: number;
  failed: number;
  rssStart: number;
  rssPeak: number;
  rssEnd: number;
  rssFirstHalf: number;
  rssAfterHalf: number;
  load: number;
  /** Server CPU seconds (user + system) spent during the import. */
  serverCpu: number;
  /** CPU seconds of this process (the import command) meanwhile. */
  cliCpu: number;
}

/** A fresh, empty database for one run: a SQLite data dir, or a new PostgreSQL database. */
async function freshDatabase(dialect: 'sqlite' | 'postgres', dir: string): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dataDir = join(dir, `sqlite-${randomBytes(4).toString('hex')}`);
    return { env: { GATEHOUSE_DATA_DIR: dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `gatehouse_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(query);
    await client.end();
  };
  await admin(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return { env: { GATEHOUSE_DATABASE_URL: url.toString() }, drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** The server's resident set (kB in /proc/<pid>/status), in bytes; 0 once it is gone. */
function residentBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The server's CPU time so far (user + system, /proc/<pid>/stat), in seconds. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 per second)
}

/**
 * Starts the bundled server (dist/server/cli.js, what `npm start` runs) as its own process on a
 * free port, one process (GATEHOUSE_WORKERS=1), production mode, request log off; resolves once
 * it prints its "Listening" line. BENCH_SERVER_NODE_OPTIONS adds node flags (e.g. --cpu-prof).
 */
async function startServer(env: Record<string, string>, dir: string): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const extra = (process.env.BENCH_SERVER_NODE_OPTIONS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...extra, join(REPO, SERVER_BUNDLE)], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      GATEHOUSE_PORT: '0',
      GATEHOUSE_HOST: '127.0.0.1',
      GATEHOUSE_WORKERS: '1',
      GATEHOUSE_ENVIRONMENT: 'production',
      GATEHOUSE_SECRET: 'bench-secret-not-for-production-0123456789',
      GATEHOUSE_SEED_INTERNAL_PUBLISHABLE_CLIENT_KEY: KEYS.publishableClientKey,
      GATEHOUSE_SEED_INTERNAL_SECRET_SERVER_KEY: KEYS.secretServerKey,
      GATEHOUSE_SEED_INTERNAL_SUPER_SECRET_ADMIN_KEY: KEYS.superSecretAdminKey,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => {
      stderr += text;
      const m = /Listening:\s+(http:\/\/\S+)/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${stderr}`)));
  });
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** Writes the NDJSON file: TEAMS team lines, then USERS user lines. */
async function writeFile(file: string): Promise<void> {
  const hashes = ['alpha', 'beta', 'gamma', 'delta'].map((p) => bcrypt.hashSync(`password ${p}`, 10));
  const teams = Array.from({ length: TEAMS }, () => randomUUID());
  const out = createWriteStream(file);
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  };
  for (const [i, id] of teams.entries()) await write(JSON.stringify({ type: 'team', id, display_name: `Team ${i}` }));
  for (let i = 0; i < USERS; i++) {
    await write(
      JSON.stringify({
        source_id: `bench-${i}`,
        primary_email: `user${i}@example.com`,
        primary_email_verified: i % 2 === 0,
        display_name: `User ${i}`,
        signed_up_at_millis: 1_600_000_000_000 + i * 1000,
        password_hash: hashes[i % hashes.length],
        server_metadata: { legacy_id: i },
        ...(i % 10 === 0 ? { teams: [{ id: teams[i % TEAMS] }] } : {}),
      }),
    );
  }
  out.end();
  await once(out, 'finish');
}

async function run(dialect: 'sqlite' | 'postgres', file: string, dir: string): Promise<DialectResult> {
  const database = await freshDatabase(dialect, dir);
  const server = await startServer(database.env, dir);
  const url = server.url;
  const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<any> => {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return JSON.parse(text);
  };
  try {
    const internalServer = {
      'x-stack-project-id': 'internal',
      'x-stack-access-type': 'server',
      'x-stack-secret-server-key': KEYS.secretServerKey,
    };
    const owner = await call('POST', '/users', internalServer, { primary_email: 'owner@example.com', primary_email_auth_enabled: true });
    const session = await call('POST', '/auth/sessions', internalServer, { user_id: owner.id, expires_in_millis: 3_600_000 });
    const project = await call(
      'POST',
      '/internal/projects',
      {
        'x-stack-project-id': 'internal',
        'x-stack-access-type': 'client',
        'x-stack-publishable-client-key': KEYS.publishableClientKey,
        'x-stack-access-token': session.access_token,
      },
      { display_name: 'Bench', config: { credential_enabled: true } },
    );
    const admin = { 'x-stack-project-id': project.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': session.access_token };
    const keys = await call('POST', '/internal/api-keys', admin, {
      description: 'bench',
      expires_at_millis: null,
      has_publishable_client_key: true,
      has_secret_server_key: false,
      has_super_secret_admin_key: true,
    });

    const pid = server.child.pid!;
    const cpuStart = cpuSeconds(pid);
    const cliStart = process.cpuUsage();
    const rssStart = residentBytes(pid);
    let rssPeak = rssStart;
    const samples: number[] = [];
    const sampler = setInterval(() => {
      const rss = residentBytes(pid);
      samples.push(rss);
      rssPeak = Math.max(rssPeak, rss);
    }, 100);
    const summary = await runImportCommand(
      [file, '--project', project.id, '--url', url, '--admin-key', keys.super_secret_admin_key],
      {},
      {
        out: () => {},
        err: (t) => {
          if (!t.startsWith('line ')) process.stderr.write(`[${dialect}] ${t}`);
        },
        progress: () => {},
      },
    );
    clearInterval(sampler);
    const serverCpu = cpuSeconds(pid) - cpuStart;
    const cliUsage = process.cpuUsage(cliStart);
    const cliCpu = (cliUsage.user + cliUsage.system) / 1e6;
    // Flat: the peak of the second half against the peak of the first half.
    const rssFirstHalf = Math.max(rssStart, ...samples.slice(0, Math.floor(samples.length / 2)));
    const rssAfterHalf = Math.max(...samples.slice(Math.floor(samples.length / 2)));
    const rssEnd = residentBytes(pid);
    const load = loadavg()[0]!;
    const signIn = await call(
      'POST',
      '/auth/password/sign-in',
      { 'x-stack-project-id': project.id, 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': keys.publishable_client_key },
      { email: 'user1@example.com', password: 'password beta' },
    );
    if (!signIn.access_token) throw new Error('an imported user could not sign in');
    const s = summary!;
    const result: DialectResult = {
      dialect,
      seconds: s.seconds,
      perSecond: USERS / s.seconds,
      created: s.created,
      failed: s.failed,
      rssStart,
      rssPeak,
      rssEnd,
      rssFirstHalf,
      rssAfterHalf,
      load,
      serverCpu,
      cliCpu,
    };
    console.error(
      `[${dialect}] ${s.created} created, ${s.failed} failed in ${s.seconds.toFixed(1)} s: ${Math.round(result.perSecond)} users/s; ` +
        `server RSS ${mb(rssStart).toFixed(0)} MB before, peak ${mb(rssPeak).toFixed(0)} MB (first half ${mb(rssFirstHalf).toFixed(0)}, second half ${mb(rssAfterHalf).toFixed(0)}), ${mb(rssEnd).toFixed(0)} MB after; ` +
        `server CPU ${serverCpu.toFixed(1)} s = ${Math.round(USERS / serverCpu)} users per server CPU-second (CLI ${cliCpu.toFixed(1)} s); load ${load.toFixed(1)}`,
    );
    return result;
  } finally {
    await server.stop();
    await database.drop();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-import-bench-'));
const file = join(dir, 'users.ndjson');
const runs: DialectResult[] = [];
const loadBefore = loadavg()[0]!;
try {
  await ensureLibBuilt(REPO); // the bundled server, rebuilt only when a source is newer (locked against parallel builds)
  await writeFile(file);
  for (const dialect of DIALECTS) runs.push(await run(dialect, file, dir));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const cpu = cpus();
const section = [
  '<!-- bench:import:start (written by npm run bench:import -- --write; edit scripts/bench/import-bench.ts instead) -->',
  '## Import',
  '',
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`npm run bench:import\` (\`node --import tsx scripts/bench/import-bench.ts\`).`,
  '',
  `**Machine:** ${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}; load average (1 min) ${loadBefore.toFixed(1)} at the start, ${runs.map((r) => `${r.load.toFixed(1)} after ${r.dialect}`).join(', ')} — the machine is shared with other work, so figures are a floor.`,
  '',
  `**Data:** an NDJSON file of ${TEAMS} teams and ${USERS.toLocaleString('en')} users (email, verified flag, display name, sign-up time, server metadata, a bcrypt hash; 1 in 10 a member of a team), imported with \`gatehouse import\` (run by the bench process) into the bundled server (\`dist/server/cli.js\`, what \`npm start\` runs) in a process of its own, one worker, production mode, on a fresh database: the CLI streams 10,000 records per request (\`POST /api/v1/internal/users/import\`, \`application/x-ndjson\`), the server writes them 5,000 per transaction and streams back each record's result. Hashes are stored as imported and verified at the first sign-in (one user signs in after each run). Memory is the **server process's** resident set (\`VmRSS\`), sampled every 100 ms; "first half / second half" are the peaks of each half of the import (flat: the second is not above the first by much). Server CPU is the server process's user + system time during the import (steadier than wall time on a loaded machine); users per server CPU-second is what one idle core would do if the server were the bottleneck. **Targets: ≥ 5,000 users/s on SQLite, ≥ 2,000 users/s on PostgreSQL, server RSS < 250 MB and flat.**`,
  '',
  '| Database | Users | Time | Users/s | Load (1 min) after | Server CPU | Users per server CPU-s | Server RSS before | peak (first half / second half) | after |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...runs.map(
    (r) =>
      `| ${r.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${r.created.toLocaleString('en')} (${r.failed} failed) | ${r.seconds.toFixed(1)} s | **${Math.round(r.perSecond).toLocaleString('en')}** | ${r.load.toFixed(1)} | ${r.serverCpu.toFixed(1)} s (CLI ${r.cliCpu.toFixed(1)} s) | ${Math.round(USERS / r.serverCpu).toLocaleString('en')} | ${mb(r.rssStart).toFixed(0)} MB | **${mb(r.rssPeak).toFixed(0)} MB** (${mb(r.rssFirstHalf).toFixed(0)} / ${mb(r.rssAfterHalf).toFixed(0)} MB) | ${mb(r.rssEnd).toFixed(0)} MB |`,
  ),
  '<!-- bench:import:end -->',
].join('\n');
console.log(section);
// The verdict, one line per database, last on the terminal.
for (const r of runs) {
  const target = r.dialect === 'sqlite' ? 5_000 : 2_000;
  const flat = r.rssAfterHalf <= r.rssFirstHalf * 1.1;
  console.error(
    `${r.dialect}: ${Math.round(r.perSecond).toLocaleString('en')} users/s (target ${target.toLocaleString('en')}: ${r.perSecond >= target ? 'met' : 'NOT met'}); ` +
      `server RSS peak ${mb(r.rssPeak).toFixed(0)} MB (target 250 MB: ${mb(r.rssPeak) < 250 ? 'met' : 'NOT met'}), ` +
      `${flat ? 'flat' : 'NOT flat'} (first half ${mb(r.rssFirstHalf).toFixed(0)} MB, second half ${mb(r.rssAfterHalf).toFixed(0)} MB); ` +
      `load average ${r.load.toFixed(1)}`,
  );
}
if (process.argv.includes('--write')) console.error(`Wrote the Import section of ${writeDocSection('import', section)}`);
