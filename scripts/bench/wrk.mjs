// wrk (Debian's package, C, epoll) as the load generator of GET runs in compare.mjs: on a 2-core
// machine the load generator shares the cores with the servers, and autocannon (JavaScript) spends
// about 90 µs of CPU per request at 5,000 req/s, about as much as the servers' own work. That
// caps what a second core can show (--workers 2 against one process) at about 1.3×, whatever the
// server does. wrk spends a small fraction of that per request.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Lua for wrk: one line of JSON with the counts and latency percentiles (µs) of the run. */
const REPORT_LUA = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\n{"requests":%d,"durationUs":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50":%d,"p99":%d}\\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout, latency:percentile(50), latency:percentile(99)))
end
`;

let available;
/**
 * Whether wrk can be used: on PATH, or installed now with apt-get (as root, on Debian). Decided
 * once per process. BENCH_LOAD_GENERATOR=autocannon turns it off.
 */
export function wrkAvailable() {
  if (available !== undefined) return available;
  if (process.env.BENCH_LOAD_GENERATOR === 'autocannon') return (available = false);
  const found = () => spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
  if (!found() && process.getuid?.() === 0)
    spawnSync('apt-get', ['install', '-y', '-qq', 'wrk'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return (available = found());
}

/** wrk's version line, for the report. */
export function wrkVersion() {
  const out = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  return /wrk\s+(\S+)/.exec(`${out.stdout}${out.stderr}`)?.[1] ?? 'unknown';
}

let scriptFile;
/**
 * One wrk run of GET `url` (or `method` with a fixed `body`) with fixed `headers` at `connections`
 * for `seconds` (one thread, 30 s timeout). Resolves with the fields compare.mjs reads from autocannon's result: `2xx` (answers
 * below 400, as wrk counts them), `non2xx`, `errors` (connect, read and write errors), `timeouts`,
 * `latency.p50` / `latency.p99` in ms.
 */
export function runWrk({ url, method = 'GET', body, headers = {}, connections, seconds }) {
  scriptFile ??= (() => {
    const file = join(mkdtempSync(join(tmpdir(), 'gatehouse-bench-wrk-')), 'report.lua');
    writeFileSync(file, REPORT_LUA);
    return file;
  })();
  // A request other than a bare GET gets its own script: the method and body set, then the report.
  const script =
    method === 'GET' && body === undefined
      ? scriptFile
      : (() => {
          const file = join(mkdtempSync(join(tmpdir(), 'gatehouse-bench-wrk-')), 'request.lua');
          writeFileSync(
            file,
            `wrk.method = ${JSON.stringify(method)}\n${body === undefined ? '' : `wrk.body = ${JSON.stringify(body)}\n`}${REPORT_LUA}`,
          );
          return file;
        })();
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '30s', '-s', script];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      err += d;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out
        .split('\n')
        .reverse()
        .find((l) => l.startsWith('{'));
      if (code !== 0 || !line) return reject(new Error(`wrk exited with ${code}: ${err || out}`));
      const r = JSON.parse(line);
      resolve({
        '2xx': r.requests - r.status,
        non2xx: r.status,
        errors: r.connect + r.read + r.write,
        timeouts: r.timeout,
        latency: { p50: Math.round(r.p50 / 1000), p99: Math.round(r.p99 / 1000) },
      });
    });
  });
}
