// npm run bench:import — importing 100,000 users with `gatehouse import`, on SQLite and
// on PostgreSQL. For each database: starts a real Gatehouse server in this process on a fresh
// database, creates a dashboard owner, a project and its admin key through the API, writes an
// NDJSON file of BENCH_USERS users (email, verified flag, metadata, a bcrypt hash: hashes are
// stored as imported and verified only at sign-in, so a few distinct ones suffice), 1 in 10 of
// them members of one of 100 imported teams, then runs the import command in-process against
// the server (batches of 1,000 lines over HTTP) while sampling this process's resident memory
// every 100 ms (server and CLI together: an upper bound for either). Then signs one user in.
// Targets: ≥ 5,000 users/s on SQLite, ≥ 2,000 users/s on PostgreSQL, RSS < 250 MB and flat.
// Prints a Markdown section; with --write, replaces the "bench:import" block of docs/benchmarks.md.
// Env: BENCH_USERS (default 100000), BENCH_DIALECTS (default "sqlite,postgres"),
// TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres).
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import pg from 'pg';
import { writeDocSection } from './doc-section.mjs';
import { createGatehouse } from '../../server-bin/index.ts';
import { runImportCommand } from '../../server-bin/import-command.ts';
import { createSqliteAdapter } from '../../adapters/sqlite/index.ts';
import { createPostgresAdapter } from '../../adapters/postgres/index.ts';
import type { StorageAdapter } from '../../core/index.ts';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',').map((d) => d.trim()) as Array<'sqlite' | 'postgres'>;
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TEAMS = 100;
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
  rssAfterHalf: number;
  load: number;
}

async function freshStorage(dialect: 'sqlite' | 'postgres', dir: string): Promise<{ storage: StorageAdapter; drop(): Promise<void> }> {
  if (dialect === 'sqlite') return { storage: createSqliteAdapter({ filename: join(dir, 'gatehouse.db') }), drop: async () => {} };
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  return {
    storage: createPostgresAdapter({ connectionString: POSTGRES_URL, schema }),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`drop schema "${schema}" cascade`);
      await client.end();
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
  const { storage, drop } = await freshStorage(dialect, dir);
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const gatehouse = await createGatehouse({
    storage,
    baseUrl: url,
    secret: 'bench-secret-not-for-production',
    environment: 'production',
    seedKeys: KEYS,
  });
  server.on('request', gatehouse.handler);
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

    global.gc?.();
    const rssStart = process.memoryUsage.rss();
    let rssPeak = rssStart;
    let rssAfterHalf = 0;
    const samples: number[] = [];
    const sampler = setInterval(() => {
      const rss = process.memoryUsage.rss();
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
    // Flat: the peak of the second half against the peak of the first half.
    rssAfterHalf = Math.max(...samples.slice(Math.floor(samples.length / 2)));
    const rssEnd = process.memoryUsage.rss();
    const signIn = await call(
      'POST',
      '/auth/password/sign-in',
      { 'x-stack-project-id': project.id, 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': keys.publishable_client_key },
      { email: 'user1@example.com', password: 'password beta' },
    );
    if (!signIn.access_token) throw new Error('an imported user could not sign in');
    const s = summary!;
    console.error(
      `[${dialect}] ${s.created} created, ${s.failed} failed in ${s.seconds.toFixed(1)} s: ${Math.round(s.records / s.seconds)} records/s; RSS ${mb(rssStart).toFixed(0)} → peak ${mb(rssPeak).toFixed(0)} MB`,
    );
    return {
      dialect,
      seconds: s.seconds,
      perSecond: USERS / s.seconds,
      created: s.created,
      failed: s.failed,
      rssStart,
      rssPeak,
      rssEnd,
      rssAfterHalf,
      load: loadavg()[0]!,
    };
  } finally {
    server.closeAllConnections();
    server.close();
    await gatehouse.close();
    await drop();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-import-bench-'));
const file = join(dir, 'users.ndjson');
const runs: DialectResult[] = [];
const loadBefore = loadavg()[0]!;
try {
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
  `**Data:** an NDJSON file of ${TEAMS} teams and ${USERS.toLocaleString('en')} users (email, verified flag, display name, sign-up time, server metadata, a bcrypt hash; 1 in 10 a member of a team), imported with \`gatehouse import\` in batches of 1,000 lines over HTTP (\`POST /api/v1/internal/users/import\`) into a server in the same process. Hashes are stored as imported and verified at the first sign-in. Memory is the process's resident set (server and CLI together), sampled every 100 ms. **Targets: ≥ 5,000 users/s on SQLite, ≥ 2,000 users/s on PostgreSQL, RSS < 250 MB and flat.**`,
  '',
  '| Database | Users | Time | Users/s | RSS before | RSS peak | RSS after |',
  '|---|---|---|---|---|---|---|',
  ...runs.map(
    (r) =>
      `| ${r.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${r.created.toLocaleString('en')} (${r.failed} failed) | ${r.seconds.toFixed(1)} s | ${Math.round(r.perSecond).toLocaleString('en')} | ${mb(r.rssStart).toFixed(0)} MB | ${mb(r.rssPeak).toFixed(0)} MB (${mb(r.rssAfterHalf).toFixed(0)} MB in the second half) | ${mb(r.rssEnd).toFixed(0)} MB |`,
  ),
  '<!-- bench:import:end -->',
].join('\n');
console.log(section);
if (process.argv.includes('--write')) console.error(`Wrote the Import section of ${writeDocSection('import', section)}`);
