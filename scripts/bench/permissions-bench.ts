// npm run bench:permissions — team permission checks per second.
// Seeds, directly through the storage queries, one project with 10,000 users, 1,000 teams,
// about 30,000 memberships (each user in up to 3 teams) and a three-level permission graph
//   owner ⊃ editor ⊃ viewer ⊃ $read_members   (plus owner ⊃ $delete_team, editor ⊃ $update_team)
// with every membership granted one of owner / editor / viewer. Then runs `hasTeamPermission`
// (the helper every `$…` check uses: one indexed join of grants with the materialized closure)
// for random (team, member, permission) triples, about two thirds of them true.
// Env: BENCH_DIALECTS (default "sqlite,postgres"), BENCH_CHECKS (default 20000),
//      BENCH_POSTGRES_URL (default TEST_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/postgres).
// With --write, replaces the "Permissions" section of docs/benchmarks.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { writeDocSection } from './doc-section.mjs';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { createSqliteAdapter } from '../../adapters/sqlite/index.ts';
import { createPostgresAdapter } from '../../adapters/postgres/index.ts';
import { migrateToLatest, type StorageAdapter } from '../../core/storage/adapter.ts';
import { defaultProjectConfig } from '../../core/config/project-config.ts';
import { insertProject } from '../../core/projects/queries.ts';
import { hasTeamPermission } from '../../core/permissions/index.ts';
import type { Credentials } from '../../core/index.ts';
import { rebuildClosure } from '../../core/permissions/graph.ts';
import { insertDefinition, setContained } from '../../core/permissions/queries.ts';

const USERS = 10_000;
const TEAMS = 1_000;
const TEAMS_PER_USER = 3;
const CHECKS = Number(process.env.BENCH_CHECKS ?? 20_000);
const LEVELS = ['viewer', 'editor', 'owner'] as const;
const ASKED = ['viewer', 'editor', 'owner', '$read_members', '$update_team', '$delete_team'] as const;

/** Pseudo-random but repeatable choices (xorshift32). */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return (n: number) => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x % n;
  };
}

async function seed(adapter: StorageAdapter) {
  const db = adapter.db;
  await migrateToLatest(adapter);
  const projectId = randomUUID();
  await insertProject(db, {
    id: projectId,
    displayName: 'Bench',
    description: '',
    createdAt: Date.now(),
    isProductionMode: false,
    isDevelopmentEnvironment: false,
    ownerTeamId: null,
    logoUrl: null,
    logoFullUrl: null,
    logoDarkModeUrl: null,
    logoFullDarkModeUrl: null,
    config: defaultProjectConfig(),
  });
  const now = Date.now();
  await insertDefinition(db, projectId, { id: 'viewer', scope: 'team', description: null }, now);
  await insertDefinition(db, projectId, { id: 'editor', scope: 'team', description: null }, now);
  await insertDefinition(db, projectId, { id: 'owner', scope: 'team', description: null }, now);
  await setContained(db, projectId, 'viewer', ['$read_members']);
  await setContained(db, projectId, 'editor', ['viewer', '$update_team']);
  await setContained(db, projectId, 'owner', ['editor', '$delete_team']);
  await rebuildClosure(db, projectId);

  const userIds = Array.from({ length: USERS }, () => randomUUID());
  const teamIds = Array.from({ length: TEAMS }, () => randomUUID());
  const risk = JSON.stringify({ sign_up: { bot: 0, free_trial_abuse: 0 } });
  const batch = async <T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>) => {
    for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
  };
  await db.transaction().execute(async (trx) => {
    await batch(userIds, 200, (chunk) =>
      trx
        .insertInto('users')
        .values(
          chunk.map((id, i) => ({
            id,
            project_id: projectId,
            display_name: `User ${i}`,
            primary_email: null,
            primary_email_verified: false,
            primary_email_auth_enabled: false,
            profile_image_url: null,
            signed_up_at: now,
            last_active_at: now,
            client_metadata: null,
            client_read_only_metadata: null,
            server_metadata: null,
            password_hash: null,
            otp_auth_enabled: false,
            passkey_auth_enabled: false,
            totp_secret_base64: null,
            is_anonymous: false,
            selected_team_id: null,
            restricted_by_admin: false,
            restricted_by_admin_reason: null,
            restricted_by_admin_private_details: null,
            country_code: null,
            risk_scores: risk,
          })),
        )
        .execute(),
    );
    await batch(teamIds, 500, (chunk) =>
      trx
        .insertInto('teams')
        .values(
          chunk.map((id, i) => ({
            id,
            project_id: projectId,
            display_name: `Team ${i}`,
            profile_image_url: null,
            client_metadata: null,
            client_read_only_metadata: null,
            server_metadata: null,
            created_at: now,
          })),
        )
        .execute(),
    );
    const memberships: Array<{ team: string; user: string; level: string }> = [];
    userIds.forEach((user, i) => {
      const teams = new Set([i % TEAMS, (i * 7 + 3) % TEAMS, (i * 13 + 5) % TEAMS]);
      let k = 0;
      for (const t of teams) memberships.push({ team: teamIds[t]!, user, level: LEVELS[(i + k++) % 3]! });
    });
    await batch(memberships, 500, (chunk) =>
      trx
        .insertInto('team_members')
        .values(
          chunk.map((m) => ({
            project_id: projectId,
            team_id: m.team,
            user_id: m.user,
            display_name: null,
            profile_image_url: null,
            created_at: now,
          })),
        )
        .execute(),
    );
    await batch(memberships, 500, (chunk) =>
      trx
        .insertInto('team_permission_grants')
        .values(
          chunk.map((m) => ({
            project_id: projectId,
            team_id: m.team,
            user_id: m.user,
            permission_id: m.level,
            created_at: now,
          })),
        )
        .execute(),
    );
    (seed as unknown as { memberships: typeof memberships }).memberships = memberships;
  });
  return { projectId, memberships: (seed as unknown as { memberships: Array<{ team: string; user: string; level: string }> }).memberships };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function run(dialect: 'sqlite' | 'postgres') {
  let adapter: StorageAdapter;
  let cleanup: () => Promise<void>;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-perm-bench-'));
    adapter = createSqliteAdapter({ filename: join(dir, 'bench.db') });
    cleanup = async () => {
      await adapter.close();
      rmSync(dir, { recursive: true, force: true });
    };
  } else {
    const url = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const schema = `bench_${randomBytes(5).toString('hex')}`;
    adapter = createPostgresAdapter({ connectionString: url, schema, max: 10 });
    cleanup = async () => {
      await adapter.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    };
  }
  try {
    const t0 = performance.now();
    const { projectId, memberships } = await seed(adapter);
    const seedMs = performance.now() - t0;
    const pick = rng(42);
    const cases = Array.from({ length: CHECKS }, () => {
      const m = memberships[pick(memberships.length)]!;
      return { ...m, permission: ASKED[pick(ASKED.length)]! };
    });
    // Warm-up (statement cache, page cache).
    for (const c of cases.slice(0, 500)) await hasTeamPermission(adapter.db, projectId, c.team, c.user, c.permission);

    const latencies: number[] = [];
    let granted = 0;
    const start = performance.now();
    for (const c of cases) {
      const s = performance.now();
      if (await hasTeamPermission(adapter.db, projectId, c.team, c.user, c.permission)) granted++;
      latencies.push(performance.now() - s);
    }
    const sequentialMs = performance.now() - start;
    latencies.sort((a, b) => a - b);

    const concurrency = 32;
    const cStart = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < cases.length) {
          const c = cases[next++]!;
          await hasTeamPermission(adapter.db, projectId, c.team, c.user, c.permission);
        }
      }),
    );
    const concurrentMs = performance.now() - cStart;

    // Sanity: expected answers from the graph.
    const implies: Record<string, string[]> = {
      viewer: ['viewer', '$read_members'],
      editor: ['editor', 'viewer', '$read_members', '$update_team'],
      owner: ['owner', 'editor', 'viewer', '$read_members', '$update_team', '$delete_team'],
    };
    const expected = cases.filter((c) => implies[c.level]!.includes(c.permission)).length;
    if (expected !== granted) throw new Error(`wrong answers: expected ${expected} granted, got ${granted}`);

    return {
      dialect,
      seedMs,
      granted,
      memberships: memberships.length,
      sequential: CHECKS / (sequentialMs / 1000),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      concurrent: CHECKS / (concurrentMs / 1000),
      concurrency,
    };
  } finally {
    await cleanup();
  }
}

/**
 * API key check timing: `POST /user-api-keys/check` run in process through the real operation
 * (`core.invoke`, SQLite) for an existing key, a well-formed key that does not exist (valid
 * checksum, random id) and a malformed string of the same length, interleaved. The check does one
 * SHA-256 and one unique-index lookup whatever the input, so the three medians should agree.
 */
async function apiKeyTiming() {
  const { createCore } = await import('../../core/index.ts');
  const { createApiKeySecret } = await import('../../core/api-keys/index.ts');
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-key-bench-'));
  const keys = {
    publishableClientKey: 'pck_bench_keys_0123456789abcdefghijklmnopqrstuvwxyz012',
    secretServerKey: 'ssk_bench_keys_0123456789abcdefghijklmnopqrstuvwxyz012',
    superSecretAdminKey: 'sak_bench_keys_0123456789abcdefghijklmnopqrstuvwxyz012',
  };
  const core = await createCore({
    storage: createSqliteAdapter({ filename: join(dir, 'keys.db') }),
    baseUrl: 'http://127.0.0.1:1',
    secret: 'bench-secret',
    environment: 'production',
    seedKeys: keys,
  });
  try {
    const server = { projectId: 'internal', accessType: 'server', secretServerKey: keys.secretServerKey };
    const admin = { projectId: 'internal', accessType: 'admin', superSecretAdminKey: keys.superSecretAdminKey };
    const ok = (id: string, credentials: Credentials, body: unknown) => core.invoke<Record<string, any>>(id, credentials, { body });
    await ok('projects.updateCurrent', admin, { config: { allow_user_api_keys: true } });
    const user = await ok('users.create', server, {});
    for (let i = 0; i < 1000; i++)
      await ok('apiKeys.createUserKey', server, { user_id: user.id, description: `k${i}`, expires_at_millis: null });
    const real = (await ok('apiKeys.createUserKey', server, { user_id: user.id, description: 'real', expires_at_millis: null }))
      .value as string;
    const unknown = createApiKeySecret({ id: randomUUID(), type: 'user', isPublic: false });
    const malformed = 'x'.repeat(real.length);
    const inputs = { existing: real, unknown, malformed };
    const samples: Record<string, number[]> = { existing: [], unknown: [], malformed: [] };
    for (let round = 0; round < 3000; round++) {
      for (const [name, apiKey] of Object.entries(inputs)) {
        const t = performance.now();
        const found = await core.invoke('apiKeys.checkUserKey', server, { body: { api_key: apiKey } }).then(
          () => true,
          () => false,
        );
        const dt = performance.now() - t;
        if (round >= 200) samples[name]!.push(dt);
        if ((name === 'existing') !== found) throw new Error(`unexpected answer for ${name}`);
      }
    }
    return Object.fromEntries(
      Object.entries(samples).map(([k, v]) => {
        v.sort((a, b) => a - b);
        return [k, { p50: percentile(v, 50), p90: percentile(v, 90) }];
      }),
    );
  } finally {
    await core.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean) as Array<'sqlite' | 'postgres'>;
const results = [];
for (const d of dialects) {
  const r = await run(d);
  results.push(r);
  console.error(
    `${d}: ${r.sequential.toFixed(0)} checks/s sequential (p50 ${(r.p50 * 1000).toFixed(0)} µs, p99 ${(r.p99 * 1000).toFixed(0)} µs), ${r.concurrent.toFixed(0)} checks/s with ${r.concurrency} in flight; seeded in ${(r.seedMs / 1000).toFixed(1)} s`,
  );
}

const timing = await apiKeyTiming();
console.error(
  `API key check p50: existing ${(timing.existing!.p50 * 1000).toFixed(0)} µs, unknown ${(timing.unknown!.p50 * 1000).toFixed(0)} µs, malformed ${(timing.malformed!.p50 * 1000).toFixed(0)} µs`,
);

const cpu = cpus();
const section = [
  '<!-- bench:permissions:start (written by npm run bench:permissions -- --write; edit scripts/bench/permissions-bench.ts instead) -->',
  '## Permissions',
  '',
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`npm run bench:permissions\` (\`node --import tsx scripts/bench/permissions-bench.ts\`, ${CHECKS} checks per run).`,
  '',
  `**Machine:** ${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}; load average ${loadavg()[0]!.toFixed(1)} at the end of the run (the machine is shared with other work, so figures are a floor).`,
  '',
  `**Data:** one project, ${USERS.toLocaleString('en')} users, ${TEAMS.toLocaleString('en')} teams, ${results[0]?.memberships.toLocaleString('en') ?? '?'} memberships (each user in up to ${TEAMS_PER_USER} teams), each granted one of owner ⊃ editor ⊃ viewer ⊃ \`$read_members\` (owner also ⊃ \`$delete_team\`, editor ⊃ \`$update_team\`). Each check asks \`hasTeamPermission(db, project, team, user, permission)\` for a random member and one of six permissions (${results[0] ? ((results[0].granted / CHECKS) * 100).toFixed(0) : '?'}% true); answers are verified against the graph. A check is one indexed join of \`team_permission_grants\` with the materialized closure \`permission_closure\`, in process (no HTTP).`,
  '',
  '| Database | Checks/s, one at a time | p50 / p99 latency | Checks/s, 32 in flight |',
  '|---|---|---|---|',
  ...results.map(
    (r) =>
      `| ${r.dialect === 'sqlite' ? 'SQLite (better-sqlite3, WAL)' : 'PostgreSQL (local, pool of 10)'} | ${r.sequential.toFixed(0)} | ${(r.p50 * 1000).toFixed(0)} µs / ${(r.p99 * 1000).toFixed(0)} µs | ${r.concurrent.toFixed(0)} |`,
  ),
  '',
  '**API key check timing** (`POST /user-api-keys/check` through the real operation in process, SQLite, 1,001 keys stored, 2,800 interleaved samples each). Every input costs one SHA-256 and one unique-index lookup, with no early exit on format or checksum, so an unknown key answers in the same time as a known one:',
  '',
  '| Input | p50 | p90 |',
  '|---|---|---|',
  ...Object.entries(timing).map(
    ([k, t]) =>
      `| ${k === 'existing' ? 'existing key (200)' : k === 'unknown' ? 'well-formed unknown key (404)' : 'malformed string, same length (404)'} | ${(t.p50 * 1000).toFixed(0)} µs | ${(t.p90 * 1000).toFixed(0)} µs |`,
  ),
  '<!-- bench:permissions:end -->',
].join('\n');
console.log(section);

if (process.argv.includes('--write')) {
  console.error(`Wrote the Permissions section of ${writeDocSection('permissions', section)}`);
}
