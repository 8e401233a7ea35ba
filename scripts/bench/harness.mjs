// What the HTTP benchmarks under scripts/bench/ share: a free loopback port, starting and stopping
// a server (the single executable, the ceiling, Better Auth) and waiting for its first answer,
// a fresh PostgreSQL database per server, the CPU and memory of a process and its workers from
// /proc, one measured load run (wrk for GETs, autocannon for the rest: scripts/bench/wrk.mjs),
// and the Gatehouse client of the scenarios (reader, refresh sessions, the requests).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { runWrk, wrkAvailable } from './wrk.mjs';

/** The repository's root folder. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The internal project's keys, seeded by environment so every bench knows them. */
export const KEYS = {
  GATEHOUSE_SEED_INTERNAL_PUBLISHABLE_CLIENT_KEY: 'pck_bench_internal_publishable_key_0123456789abcdefghijk',
  GATEHOUSE_SEED_INTERNAL_SECRET_SERVER_KEY: 'ssk_bench_internal_secret_server_key_0123456789abcdefghij',
  GATEHOUSE_SEED_INTERNAL_SUPER_SECRET_ADMIN_KEY: 'sak_bench_internal_super_secret_admin_key_0123456789abcd',
};
/** Client-access headers of the internal project. */
export const CLIENT = {
  'x-stack-project-id': 'internal',
  'x-stack-access-type': 'client',
  'x-stack-publishable-client-key': KEYS.GATEHOUSE_SEED_INTERNAL_PUBLISHABLE_CLIENT_KEY,
  'content-type': 'application/json',
};
/** Every bench user's password. */
export const PASSWORD = 'bench password 0123456789';
/** BENCH_POSTGRES_URL, or the local server (127.0.0.1:5432, user postgres). */
export const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

/** A log line on stderr prefixed with `tag` and the seconds since the first call. */
export function logger(tag) {
  const started = Date.now();
  return (msg) => process.stderr.write(`[${tag} ${Math.round((Date.now() - started) / 1000)}s] ${msg}\n`);
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

/**
 * Spawns a server on a free port (env PORT, and `--port` when `name` is 'gatehouse') and resolves
 * once GET `probe` answers 2xx (at most 120 s). Killed when this process exits.
 * @returns {Promise<{ child, url, ms, stderr: () => string }>} `ms`: spawn to first 2xx.
 */
export async function startServer(name, command, args, { cwd, env, probe }) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(command, [...args, ...(name === 'gatehouse' ? ['--port', String(port)] : [])], {
    cwd,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d) => {
    err += d;
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
    children.delete(child);
  });
  for (;;) {
    if (exited) throw new Error(`${name} exited before answering:\n${err}`);
    if (performance.now() - t0 > 120_000) throw new Error(`${name} did not answer within 120 s:\n${err}`);
    try {
      const res = await fetch(`${url}${probe}`);
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  return { child, url, ms: performance.now() - t0, stderr: () => err };
}

/** SIGTERM, then SIGKILL after 10 s; resolves once the server has exited. */
export async function stopServer(server) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const done = new Promise((ok) => server.child.once('exit', ok));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
  await done;
  clearTimeout(timer);
}

/**
 * The single executable `binary` with `--workers <workers>` in data folder `dir` (created), on
 * SQLite there or on `databaseUrl`, client sign-up open, throttling off (throughput is measured).
 * `binary` may be dist/server/cli.js, run by this node with `nodeArgs` (e.g. --cpu-prof).
 */
export async function startGatehouse(binary, { dir, workers = '1', databaseUrl, nodeArgs = [] }) {
  mkdirSync(dir, { recursive: true });
  const args = ['--workers', String(workers), ...(databaseUrl ? ['--database-url', databaseUrl] : [])];
  // A .js file (npm start's bundle, dist/server/cli.js) runs under this node with `nodeArgs`.
  const [command, prefix] = binary.endsWith('.js') ? [process.execPath, [...nodeArgs, binary]] : [binary, []];
  const server = await startServer('gatehouse', command, [...prefix, ...args], {
    cwd: dir,
    env: { HOME: dir, PATH: process.env.PATH, ...KEYS, GATEHOUSE_DASHBOARD_SIGNUP: 'open' },
    probe: '/api/v1',
  });
  await throttlingOff(server.url);
  return server;
}

/** Turns the internal project's throttling off. */
export async function throttlingOff(url) {
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
  if (!off.ok) throw new Error(`could not turn throttling off for the benchmark: ${off.status} ${await off.text()}`);
}

/**
 * Fresh PostgreSQL databases on the server of `baseUrl`: `create()` makes one and returns its
 * URL, `dropAll()` drops every one made (`with (force)`). Null when the server does not answer.
 */
export async function postgresDatabases(baseUrl = POSTGRES_URL) {
  const admin = new pg.Client({ connectionString: baseUrl });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const made = [];
  return {
    async create(prefix = 'gatehouse_bench') {
      const name = `${prefix}_${Date.now().toString(36)}_${made.length}`;
      await admin.query(`create database ${name}`);
      made.push(name);
      const url = new URL(baseUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    /**
     * CPU ms (user + system, from /proc: the server is on this machine) of every backend
     * connected to the database of `url` now, by pid: what PostgreSQL spends for that server.
     */
    async backendCpu(url) {
      const { rows } = await admin.query('select pid from pg_stat_activity where datname = $1', [new URL(url).pathname.slice(1)]);
      const out = new Map();
      for (const { pid } of rows) {
        try {
          out.set(pid, cpuMs(pid));
        } catch {
          /* gone since */
        }
      }
      return out;
    },
    async dropAll() {
      for (const name of made.splice(0)) await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** Resident set size of a process in MB (Linux /proc). */
export function rssMb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** CPU time (user + system, all threads) a process has used, in ms (Linux /proc, 10 ms ticks). */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A process and its children (the workers of `--workers`), from /proc. */
export function familyPids(pid) {
  try {
    const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return [pid, ...kids.flatMap((c) => familyPids(c))];
  } catch {
    return [pid];
  }
}

/** Resident memory of a process and its children in MB. */
export function familyRssMb(pid) {
  return familyPids(pid).reduce((n, p) => n + rssMb(p), 0);
}

/** The middle value (the upper one of an even count). */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** "2 cores, 1-minute load average 1.23" for the reports. */
export function machineLine() {
  return `${cpus().length} cores, 1-minute load average ${loadavg()[0].toFixed(2)}`;
}

/**
 * One measured run of `connections` connections for `seconds`. `headers` and `body` may be
 * functions, called for every request (rotating sessions, unique e-mails). GETs with fixed
 * headers go through wrk when it is there, the rest through autocannon. `pid` (one or a list):
 * the processes whose CPU is counted; `sampleRssOf`: a pid whose peak RSS is sampled every 200 ms.
 * @returns {Promise<{ rps, p50, p99, ok, bad, timeouts, seconds, cpuMs, peakRssMb }>} rps: 2xx answers/s; p50/p99 in ms.
 */
export async function measureLoad({ url, method = 'GET', headers = {}, body, connections, sampleRssOf, pid = [], seconds, log }) {
  const request = { method, headers: typeof headers === 'function' ? headers() : headers };
  if (typeof body === 'function' || typeof headers === 'function') {
    request.setupRequest = (req) => ({
      ...req,
      ...(typeof body === 'function' ? { body: body() } : {}),
      ...(typeof headers === 'function' ? { headers: headers() } : {}),
    });
  }
  if (body !== undefined && typeof body !== 'function') request.body = body;
  let peak = 0;
  const sampler = sampleRssOf
    ? setInterval(() => {
        peak = Math.max(peak, rssMb(sampleRssOf));
      }, 200)
    : undefined;
  const pids = Array.isArray(pid) ? pid : [pid];
  const cpuOf = () => pids.reduce((n, p) => n + cpuMs(p), 0);
  const cpu0 = cpuOf();
  const viaWrk = method === 'GET' && typeof headers !== 'function' && body === undefined && wrkAvailable();
  const result = viaWrk
    ? await runWrk({ url, headers, connections, seconds })
    : await autocannon({ url, connections, duration: seconds, requests: [request], timeout: 30 });
  const cpu = cpuOf() - cpu0;
  if (sampler) clearInterval(sampler);
  const total = result['2xx'] + result.non2xx;
  if ((result.non2xx > 0 || result.errors > 0) && log)
    log(`  warning: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts of ${total}`);
  return {
    rps: result['2xx'] / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    bad: result.non2xx + result.errors,
    timeouts: result.timeouts,
    seconds,
    cpuMs: cpu,
    peakRssMb: peak || undefined,
  };
}

/** POSTs JSON; throws unless 2xx. */
export async function post(url, headers, body) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${url} answered ${res.status}: ${text}`);
  return { res, json: JSON.parse(text) };
}

let unique = 0;
/** Users whose sessions the refresh scenario rotates over (BENCH_REFRESH_USERS, default 50: one per connection). */
const REFRESH_USERS = Number(process.env.BENCH_REFRESH_USERS ?? 50);

/** Gatehouse's side of the scenarios: its reader, refresh sessions and requests. */
export const gatehouseApi = {
  /** Signs a reader up: `{ access, refresh, email, sessions }`. */
  async setup(url) {
    const email = `reader-${unique++}-${Date.now()}@bench.example.com`;
    const { json } = await post(`${url}/api/v1/auth/password/sign-up`, CLIENT, { email, password: PASSWORD });
    return { access: json.access_token, refresh: json.refresh_token, email, sessions: [json.refresh_token] };
  },
  /**
   * The refresh scenario rotates over the sessions of REFRESH_USERS users, as many users
   * refreshing at once do: one session refreshed by every connection would let the server write
   * its activity once per batch (core/sessions/activity-writer.ts) and measure less work.
   */
  async prepare(url, c) {
    while (c.sessions.length < REFRESH_USERS) {
      const email = `refresher-${unique++}-${Date.now()}@bench.example.com`;
      c.sessions.push((await post(`${url}/api/v1/auth/password/sign-up`, CLIENT, { email, password: PASSWORD })).json.refresh_token);
    }
  },
  /** A new access token for `c` (they live 10 minutes): called before every measured run. */
  async renew(url, c) {
    const { json } = await post(`${url}/api/v1/auth/sessions/current/refresh`, { ...CLIENT, 'x-stack-refresh-token': c.refresh }, {});
    c.access = json.access_token;
  },
  read: (c) => ({ path: '/api/v1/users/me', headers: { ...CLIENT, 'x-stack-access-token': c.access } }),
  refresh: (c) => {
    let next = 0;
    return {
      method: 'POST',
      path: '/api/v1/auth/sessions/current/refresh',
      headers: () => ({ ...CLIENT, 'x-stack-refresh-token': c.sessions[next++ % c.sessions.length] }),
    };
  },
  signIn: (c) => ({
    method: 'POST',
    path: '/api/v1/auth/password/sign-in',
    headers: CLIENT,
    body: JSON.stringify({ email: c.email, password: PASSWORD }),
  }),
  signUpPath: '/api/v1/auth/password/sign-up',
  signUpHeaders: CLIENT,
  signUpBody: (email) => ({ email, password: PASSWORD }),
};

/**
 * Waits until `pids` are idle (under 10% of a core over 250 ms; at most 15 s): a sign-in run
 * leaves hashes queued in the server after the load generator stops, which would otherwise be
 * counted against the next run.
 */
export async function settle(pids) {
  const alive = () => pids.filter((p) => existsSync(`/proc/${p}/stat`));
  const cpu = () => alive().reduce((n, p) => n + cpuMs(p), 0);
  const end = Date.now() + 15_000;
  let before = cpu();
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 250));
    const now = cpu();
    if (now - before < 25) return;
    before = now;
  }
}

/** What a scenario is called in the tables. */
export const SCENARIO_LABEL = {
  read: 'Authenticated read (`GET /users/me`)',
  signIn: 'Password sign-in (argon2id, OWASP)',
  refresh: 'Refresh (`POST /auth/sessions/current/refresh`, 50 users)',
};

/**
 * Measures Gatehouse `systems` (`{ key, server, databaseCpu? }`, all started) round-robin: for each round, each
 * scenario, each system one run of `seconds[scenario]` at `connections`, so load on a shared
 * machine hits them alike. Readers and refresh sessions are made first, then 2 s of reads warm each system up.
 * @returns {Promise<Record<string, Record<string, { rps, p50, p99, runs: number[], cpuUsPerReq, bad }>>>}
 *   per system key and scenario: the median run by req/s (its latencies), every run's req/s,
 *   server CPU (all its processes) per 2xx answer over all runs in µs, the same for its
 *   PostgreSQL backends when the system has `databaseCpu` (postgresDatabases().backendCpu), non-2xx and errors.
 */
export async function measureRounds(systems, { scenarios, rounds, seconds, connections = 50, log }) {
  for (const s of systems) {
    s.credentials = await gatehouseApi.setup(s.server.url);
    if (scenarios.includes('refresh')) await gatehouseApi.prepare(s.server.url, s.credentials);
    // Warm-up (JIT, caches, the pool's connections): 2 s of reads, not counted.
    const warm = gatehouseApi.read(s.credentials);
    await measureLoad({ url: `${s.server.url}${warm.path}`, headers: warm.headers, connections: 50, seconds: 2 });
  }
  const runs = {};
  for (let round = 1; round <= rounds; round++) {
    for (const scenario of scenarios) {
      for (const s of systems) {
        await gatehouseApi.renew(s.server.url, s.credentials);
        const request = gatehouseApi[scenario](s.credentials);
        const db0 = await s.databaseCpu?.();
        const r = await measureLoad({
          url: `${s.server.url}${request.path}`,
          method: request.method,
          headers: request.headers,
          body: request.body,
          connections,
          pid: familyPids(s.server.child.pid),
          seconds: seconds[scenario],
          log,
        });
        if (db0) {
          const db1 = await s.databaseCpu();
          r.dbCpuMs = [...db1].reduce((n, [pid, ms]) => n + ms - (db0.get(pid) ?? 0), 0);
        }
        ((runs[s.key] ??= {})[scenario] ??= []).push(r);
        await settle(familyPids(s.server.child.pid));
        log?.(
          `round ${round}/${rounds} ${s.key} ${scenario}: ${r.rps.toFixed(1)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.ok ? Math.round((r.cpuMs * 1000) / r.ok) : '—'} µs CPU/request`,
        );
      }
    }
  }
  const results = {};
  for (const [key, byScenario] of Object.entries(runs)) {
    results[key] = {};
    for (const [scenario, list] of Object.entries(byScenario)) {
      const sorted = [...list].sort((a, b) => a.rps - b.rps);
      const ok = list.reduce((n, r) => n + r.ok, 0);
      results[key][scenario] = {
        ...sorted[Math.floor(sorted.length / 2)],
        runs: list.map((r) => r.rps),
        cpuUsPerReq: ok ? (list.reduce((n, r) => n + r.cpuMs, 0) * 1000) / ok : NaN,
        dbCpuUsPerReq: ok && list[0].dbCpuMs !== undefined ? (list.reduce((n, r) => n + r.dbCpuMs, 0) * 1000) / ok : undefined,
        bad: list.reduce((n, r) => n + r.bad, 0),
      };
    }
  }
  return results;
}

/** Run length per scenario from BENCH_DURATION (default 5 s): sign-in twice as long (argon2id: tens per second). */
export function scenarioSeconds() {
  const d = Number(process.env.BENCH_DURATION ?? 5);
  return { read: d, refresh: d, signIn: d * 2 };
}

/** req/s for a table: whole numbers from 100 up, one decimal below. */
export function fmtRps(rps) {
  return rps >= 100 ? Math.round(rps).toLocaleString('en-US') : rps.toFixed(1);
}
