/**
 * `npm run bench:hosted-cpu`: how soon the hosted sign-in page can be used with the CPU slowed 4×
 * (Chromium's `Emulation.setCPUThrottlingRate {rate: 4}` over CDP; /usr/bin/chromium through
 * playwright-core, never a browser download). Run with tsx (the npm script does): it reuses the
 * test helpers that start a server (SQLite, loopback, no network throttling).
 *
 * "Usable" (time to an interactive sign-in form) is measured in the page, from navigation start
 * (`performance.timeOrigin`) to the first moment when both hold:
 *   - an `<input type="email">` is in the document and not disabled, and
 *   - its form has a `submit` listener attached (Preact attaches its `onSubmit` with
 *     `addEventListener`, which an init script records), or the document has one (the
 *     server-rendered page's inline script listens on the document in the capture phase, which
 *     sees every form's submit), so a click on the button is handled.
 * The check runs on every DOM change and also whenever a submit listener is attached (a listener
 * attached by a parser-run inline script comes with no DOM change after it, so a probe that only
 * watched mutations would see it late). Since the sign-in form arrives rendered by the server with a
 * small inline script that holds a submit until the page's script has run (ui/hosted/early-input.ts),
 * a second time is recorded: **rendered**, when the page's own script has put its form in place (the
 * root no longer carries `data-server-rendered` and a form in it has a submit listener).
 * Each run opens a fresh browser context (cold cache: the HTML, the bundle and the page's API
 * calls all go over the loopback), after one warm-up run that is not counted. Prints each run and
 * the median; `--write` writes the "hosted-cpu" block of docs/benchmarks.md with the load average.
 * Environment: BENCH_RUNS (default 7), BENCH_CPU_RATE (default 4).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { launchChromium } from '../../test/helpers/browser.ts';
import { startTestServer } from '../../test/helpers/server.ts';
import { writeDocSection } from './doc-section.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const RATE = Number(process.env.BENCH_CPU_RATE ?? 4);
const TARGET_MS = 300;
const root = join(import.meta.dirname, '..', '..');

/** Records, in the page, the first time the sign-in form is interactive (see the file's comment). */
const PROBE = () => {
  const forms = new WeakSet();
  // Resolved once the page's script has rendered the form; awaited over CDP (no polling in the page,
  // which would take the throttled main thread's time from the page being measured).
  window.__rendered = new Promise((resolve) => (window.__resolveRendered = resolve));
  window.__usable = new Promise((resolve) => (window.__resolveUsable = resolve));
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, ...rest) {
    const result = add.call(this, type, ...rest);
    if (type === 'submit' && (this instanceof HTMLFormElement || this === document)) {
      if (this === document) window.__documentSubmit = true;
      else forms.add(this);
      check();
    }
    return result;
  };
  const check = () => {
    const email = document.querySelector('input[type="email"]');
    const ready = email && !email.disabled && email.form && (forms.has(email.form) || window.__documentSubmit);
    if (!ready) return false;
    if (window.__interactiveAt === undefined) {
      window.__interactiveAt = performance.now();
      window.__resolveUsable();
    }
    if (window.__renderedAt === undefined && forms.has(email.form) && !email.closest('[data-server-rendered]')) {
      window.__renderedAt = performance.now();
      window.__resolveRendered();
    }
    return window.__renderedAt !== undefined;
  };
  const watch = () => {
    if (check()) return;
    new MutationObserver((_, observer) => {
      if (check()) observer.disconnect();
    }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
  };
  if (document.documentElement) watch();
  else document.addEventListener('readystatechange', watch, { once: true });
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The floor under the same conditions: a page of one email input in a form, with a submit listener
 * on the document from its head, and nothing else (no style, no script to fetch), served from a
 * node:http server on the loopback. What remains above it is the sign-in page's own cost.
 */
const FLOOR_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>floor</title><script>document.addEventListener("submit",(e)=>e.preventDefault(),true)</script></head><body><form><input type="email" name="email"></form></body></html>';

async function startFloorServer() {
  const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(FLOOR_HTML));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Time (ms from navigation start) until the floor page's form is usable, in a fresh context at the same CPU rate. */
async function measureFloor(browser, url) {
  const context = await browser.newContext();
  await context.addInitScript(PROBE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE });
  await page.goto(url, { waitUntil: 'commit' });
  const ms = await page.evaluate(() => window.__usable.then(() => window.__interactiveAt));
  await context.close();
  return ms;
}

async function measureOnce(browser, url) {
  const context = await browser.newContext();
  await context.addInitScript(PROBE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE });
  await page.goto(url, { waitUntil: 'commit' });
  await page.evaluate(() =>
    Promise.race([
      window.__rendered,
      new Promise((_, reject) => setTimeout(() => reject(new Error('the form was not rendered in 30 s')), 30_000)),
    ]),
  );
  const { ms, renderedMs } = await page.evaluate(() => ({ ms: window.__interactiveAt, renderedMs: window.__renderedAt }));
  // The sign-in page's scripts: handler.js and the chunks it imports (preloaded with it).
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => /\/handler\/(handler|chunks\/[^/]*)\.js/.test(e.name) && e.responseEnd <= window.__interactiveAt)
      .map((e) => Math.round(e.responseEnd)),
  );
  await context.close();
  return { ms, renderedMs, scriptLoadedAt: Math.max(...scripts) };
}

async function main() {
  const before = loadavg();
  const server = await startTestServer('sqlite');
  const browser = await launchChromium();
  const url = `${server.url}/handler/sign-in`;
  const version = browser.version();
  const runs = [];
  const htmlBytes = Buffer.byteLength(await (await fetch(url)).text());
  const floorServer = await startFloorServer();
  const floors = [];
  try {
    await measureOnce(browser, url); // warm-up: the server's first render and bundle read
    await measureFloor(browser, floorServer.url);
    for (let i = 0; i < RUNS; i++) {
      const r = await measureOnce(browser, url);
      runs.push(r);
      floors.push(await measureFloor(browser, floorServer.url));
      console.error(
        `run ${i + 1}: interactive at ${r.ms.toFixed(0)} ms, rendered by the page's script at ${r.renderedMs.toFixed(0)} ms (scripts loaded at ${r.scriptLoadedAt} ms); floor page ${floors.at(-1).toFixed(0)} ms`,
      );
    }
  } finally {
    await browser.close();
    await server.close();
    await floorServer.close();
  }
  const after = loadavg();
  const times = runs.map((r) => r.ms);
  const med = median(times);
  const rendered = runs.map((r) => r.renderedMs);
  // What sign-in loads: the entry and the chunks it imports (scripts/build-ui.mjs writes the list).
  const dir = join(root, 'dist/ui/handler');
  const files = ['handler.js', ...JSON.parse(readFileSync(join(dir, 'handler.json'), 'utf8')).preload];
  const bytes = files.reduce((n, f) => n + statSync(join(dir, f)).size, 0);
  const gz = files.reduce((n, f) => n + gzipSync(readFileSync(join(dir, f)), { level: 9 }).length, 0);
  console.log(
    `median ${med.toFixed(0)} ms, min ${Math.min(...times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms over ${RUNS} runs at ${RATE}× CPU slowdown (rendered by the page's script: median ${median(rendered).toFixed(0)} ms; floor page: median ${median(floors).toFixed(0)} ms); HTML ${htmlBytes} B, sign-in JS (${files.length} files) ${bytes} B / ${gz} B gzipped; load ${before.map((l) => l.toFixed(2)).join(', ')} → ${after.map((l) => l.toFixed(2)).join(', ')}`,
  );
  if (process.argv.includes('--write')) {
    const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const block = `<!-- bench:hosted-cpu:start (written by npm run bench:hosted-cpu -- --write; edit scripts/bench/hosted-page-cpu.mjs instead) -->
Measured ${when} UTC with \`npm run bench:hosted-cpu -- --write\` (\`node --import tsx scripts/bench/hosted-page-cpu.mjs\`) on ${cpus().length} cores,
1-minute load average ${before[0].toFixed(2)} at the start and ${after[0].toFixed(2)} at the end (the machine is shared with other work).
Chromium ${version} headless, CPU slowed ${RATE}× (\`Emulation.setCPUThrottlingRate\`), server on the loopback (no network throttling),
a fresh browser context (cold cache) per run after one uncounted warm-up. **Usable** = from navigation start until the email input
is enabled and its form's submit is handled (for the server-rendered form, by a small inline script in the head that listens on the
document and holds a submit until the page's script has run, which then replays it); **rendered** = when the page's own script has put its form in
place (see the script's header). Target: usable under ${TARGET_MS} ms.

| Page | Runs | Usable: median | Min | Max | Rendered by the page's script: median (min–max) | HTML (bytes) | JavaScript it loads (bytes / gzipped) |
|---|---|---|---|---|---|---|---|
| \`/handler/sign-in\` | ${RUNS} | **${med.toFixed(0)} ms** | ${Math.min(...times).toFixed(0)} ms | ${Math.max(...times).toFixed(0)} ms | ${median(rendered).toFixed(0)} ms (${Math.min(...rendered).toFixed(0)}–${Math.max(...rendered).toFixed(0)}) | ${htmlBytes.toLocaleString('en')} | ${bytes.toLocaleString('en')} / ${gz.toLocaleString('en')} (${files.length} files: handler.js and the chunks it imports) |

**Floor** under the same conditions, measured after each run: a page of one email input in a form with a submit listener on the
document and nothing else, from a node:http server on the loopback: median **${median(floors).toFixed(0)} ms** (${Math.min(...floors).toFixed(0)}–${Math.max(...floors).toFixed(0)}):
Chromium's own cost of a fresh context's navigation at this CPU rate on this machine.

Each run, usable / rendered (ms): ${runs.map((r) => `${r.ms.toFixed(0)} / ${r.renderedMs.toFixed(0)}`).join(', ')}.
<!-- bench:hosted-cpu:end -->`;
    console.error(`wrote ${writeDocSection('hosted-cpu', block)}`);
  }
}

await main();
