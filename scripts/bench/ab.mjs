#!/usr/bin/env node
// node scripts/bench/ab.mjs <old dist/gatehouse> <new dist/gatehouse> [read|signIn] [rounds]
// Two builds of the single executable side by side (one process each, SQLite, throttling off),
// measured alternately with autocannon at 50 connections, so machine load hits both alike: the
// authenticated read (GET /api/v1/users/me with an access token) or password sign-in. Prints each
// run and the ratio of the medians (new / old). Used for "no regression" checks between commits:
// build the old commit in a git worktree (`git worktree add /tmp/old <commit>`, link node_modules,
// `npm run build:binary`), then run this from the repository.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';

const [oldArg, newArg, mode = 'read', roundsArg = '4'] = process.argv.slice(2);
const oldBinary = oldArg && resolve(oldArg);
const newBinary = newArg && resolve(newArg);
if (!oldBinary || !newBinary || !['read', 'signIn'].includes(mode)) {
  console.error('usage: node scripts/bench/ab.mjs <old binary> <new binary> [read|signIn] [rounds]');
  process.exit(2);
}
const KEYS = {
  GATEHOUSE_SEED_INTERNAL_PUBLISHABLE_CLIENT_KEY: 'pck_bench_internal_publishable_key_0123456789abcdefghijk',
  GATEHOUSE_SEED_INTERNAL_SECRET_SERVER_KEY: 'ssk_bench_internal_secret_server_key_0123456789abcdefghij',
  GATEHOUSE_SEED_INTERNAL_SUPER_SECRET_ADMIN_KEY: 'sak_bench_internal_super_secret_admin_key_0123456789abcd',
};
const CLIENT = {
  'x-stack-project-id': 'internal',
  'x-stack-access-type': 'client',
  'x-stack-publishable-client-key': KEYS.GATEHOUSE_SEED_INTERNAL_PUBLISHABLE_CLIENT_KEY,
  'content-type': 'application/json',
};
const PASSWORD = 'bench password 0123456789';

/** Starts `binary` on `port` in a fresh folder, turns throttling off, signs a reader up. */
async function start(binary, port) {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-ab-'));
  const child = spawn(binary, ['--workers', '1', '--port', String(port)], {
    cwd: dir,
    env: { HOME: dir, PATH: process.env.PATH, ...KEYS, GATEHOUSE_DASHBOARD_SIGNUP: 'open' },
    stdio: 'ignore',
  });
  process.on('exit', () => child.kill());
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${url}/api/v1`)).ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const off = await fetch(`${url}/api/v1/internal/projects/current`, {
    method: 'PATCH',
    headers: {
      'content-type': 'application/json',
      'x-stack-project-id': 'internal',
      'x-stack-access-type': 'admin',
      'x-stack-super-secret-admin-key': KEYS.GATEHOUSE_SEED_INTERNAL_SUPER_SECRET_ADMIN_KEY,
    },
    body: JSON.stringify({ config: { rate_limits: { enabled: false } } }),
  });
  if (!off.ok) throw new Error(`could not turn throttling off: ${off.status}`);
  const email = `reader-${port}@bench.example.com`;
  const res = await fetch(`${url}/api/v1/auth/password/sign-up`, {
    method: 'POST',
    headers: CLIENT,
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-up failed: ${res.status}`);
  return { child, url, email, refresh: (await res.json()).refresh_token };
}

const systems = {};
const runs = { old: [], new: [] };
try {
  systems.old = await start(oldBinary, 18201);
  systems.new = await start(newBinary, 18202);
  for (let round = 0; round < Number(roundsArg); round++) {
    for (const [name, s] of Object.entries(systems)) {
      // A fresh access token per run (they live 10 minutes).
      const access = (
        await (
          await fetch(`${s.url}/api/v1/auth/sessions/current/refresh`, {
            method: 'POST',
            headers: { ...CLIENT, 'x-stack-refresh-token': s.refresh },
            body: '{}',
          })
        ).json()
      ).access_token;
      const request =
        mode === 'read'
          ? { url: `${s.url}/api/v1/users/me`, headers: { ...CLIENT, 'x-stack-access-token': access } }
          : {
              url: `${s.url}/api/v1/auth/password/sign-in`,
              method: 'POST',
              headers: CLIENT,
              body: JSON.stringify({ email: s.email, password: PASSWORD }),
            };
      const r = await autocannon({ ...request, connections: 50, duration: mode === 'read' ? 5 : 8 });
      const ok = r.requests.total - r.non2xx;
      runs[name].push(ok / r.duration);
      console.log(`${name} round ${round + 1}: ${(ok / r.duration).toFixed(1)} req/s (2xx), ${r.non2xx} non-2xx, p99 ${r.latency.p99} ms`);
    }
  }
} finally {
  for (const s of Object.values(systems)) s.child.kill();
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
console.log(
  `${mode}: old median ${median(runs.old).toFixed(1)} req/s, new median ${median(runs.new).toFixed(1)} req/s, new / old ${(median(runs.new) / median(runs.old)).toFixed(3)}`,
);
