import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { CLIENT_HEADERS, SEED_KEYS, SERVER_HEADERS, spawnGatehouse, type GatehouseProcess } from '../ops/process.ts';

// Builds dist/gatehouse when its inputs changed (`build-binary.mjs --if-stale`: CI builds it
// before the tests, and its smoke test after them uses the same file), copies it alone into an
// empty folder and runs it there with no node on PATH and a private HOME (its addon cache).
const repo = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'gatehouse-binary-'));
const runDir = join(work, 'run');
const home = join(work, 'home');
const binary = join(runDir, 'gatehouse');
// Sign-ups to the internal project stay open after its first user (issue 7's first-run rule).
const env = { HOME: home, PATH: '/nonexistent', GATEHOUSE_DASHBOARD_SIGNUP: 'open', ...SEED_KEYS };

function run(args: string[], cwd = runDir) {
  return spawnSync(binary, args, { cwd, env, encoding: 'utf8', timeout: 20_000 });
}

function start(extra: string[] = []): Promise<GatehouseProcess> {
  return spawnGatehouse([binary, '--port', '0', ...extra], { cwd: runDir, env });
}

async function stop(proc: GatehouseProcess): Promise<void> {
  proc.child.kill('SIGTERM');
  const exit = await proc.exited;
  assert.deepEqual(exit, { code: 0, signal: null }, proc.stderr());
}

function openDb(file = join(runDir, 'gatehouse-data', 'gatehouse.db')) {
  return new BetterSqlite3(file, { fileMustExist: true });
}

before(() => {
  const build = spawnSync(process.execPath, [join(repo, 'scripts', 'build-binary.mjs'), '--if-stale', '--ui-if-missing'], {
    cwd: repo,
    encoding: 'utf8',
  });
  assert.equal(build.status, 0, build.stderr);
  mkdirSync(runDir);
  copyFileSync(join(repo, 'dist', 'gatehouse'), binary);
});
after(() => rmSync(work, { recursive: true, force: true }));

describe('the single executable', () => {
  it('prints --version and --help with no node on PATH', () => {
    assert.equal(spawnSync('node', ['--version'], { env }).error?.message.includes('ENOENT'), true, 'node must not be reachable');
    const version = run(['--version']);
    assert.equal(version.status, 0, version.stderr);
    assert.match(version.stdout, /^gatehouse \d+\.\d+\.\d+\n$/);
    const help = run(['--help']);
    assert.equal(help.status, 0);
    for (const flag of [
      '--port',
      '--host',
      '--data-dir',
      '--database-url',
      '--base-url',
      'GATEHOUSE_SECRET',
      'GATEHOUSE_SMTP_URL',
      'backup',
    ])
      assert.ok(help.stdout.includes(flag), flag);
    const bad = run(['--bogus']);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /bogus/);
  });

  it('serves the API, health, embedded static files, stores data in ./gatehouse-data and keeps it across a restart', async (t) => {
    const first = await start();
    let userId: string;
    try {
      const root = await fetch(`${first.url}/api/v1`);
      assert.equal(root.status, 200);
      assert.match(await root.text(), /Stack API/);
      assert.deepEqual(await (await fetch(`${first.url}/health/ready`)).json(), { status: 'ready' });
      // The embedded static files are served with their bytes and type; nothing outside them is.
      const embedded = readFileSync(join(repo, 'dist', 'ui', 'handler', 'handler.js'), 'utf8');
      const js = await fetch(`${first.url}/handler/handler.js`);
      assert.equal(js.status, 200);
      assert.match(js.headers.get('content-type') ?? '', /javascript/);
      assert.equal(await js.text(), embedded, 'the embedded bytes of dist/ui/handler/handler.js');
      assert.equal((await fetch(`${first.url}/handler/../gatehouse-data/gatehouse.db`)).status, 404);
      assert.equal((await fetch(`${first.url}/gatehouse-data/gatehouse.db`)).status, 404);
      if (existsSync(join(repo, 'scripts', 'build-ui.mjs'))) {
        // The UI bundles are embedded and served, and the pages render.
        const script = await fetch(`${first.url}/handler/handler.js`);
        assert.equal(script.status, 200);
        assert.match(script.headers.get('content-type') ?? '', /javascript/);
        const entry = await script.text();
        assert.ok(entry.length > 1000);
        // The chunks the entry imports (code splitting, scripts/build-ui.mjs) are embedded and served too.
        const chunk = /from"\.\/(chunks\/[\w-]+\.js)"/.exec(entry)?.[1];
        assert.ok(chunk, 'the entry imports a chunk');
        const chunkJs = await fetch(`${first.url}/handler/${chunk}`);
        assert.equal(chunkJs.status, 200);
        assert.match(chunkJs.headers.get('content-type') ?? '', /javascript/);
        assert.ok((await chunkJs.text()).length > 1000);
        const signIn = await fetch(`${first.url}/handler/sign-in`);
        assert.equal(signIn.status, 200);
        const signInHtml = await signIn.text();
        assert.match(signInHtml, /"\.\.\/handler\/handler\.js\?v=[0-9a-f]{16}"/, 'the embedded entry is versioned by its hash');
        assert.ok(signInHtml.includes(`"../handler/${chunk}"`), 'the chunk the entry imports is preloaded');
        // The dashboard at / and its script.
        const dashboard = await fetch(`${first.url}/`);
        assert.equal(dashboard.status, 200);
        const dashboardScript = /<script type="module" src="([^"?]+\.js)\?v=/.exec(await dashboard.text())?.[1];
        assert.ok(dashboardScript, 'the dashboard page loads a script');
        const dashboardJs = await fetch(new URL(dashboardScript, `${first.url}/`));
        assert.equal(dashboardJs.status, 200);
        assert.ok((await dashboardJs.text()).length > 1000);
      }
      const created = await fetch(`${first.url}/api/v1/users`, {
        method: 'POST',
        headers: SERVER_HEADERS,
        body: JSON.stringify({ primary_email: 'kept@example.com', password: 'correct horse battery', primary_email_auth_enabled: true }),
      });
      assert.equal(created.status, 201, await created.clone().text());
      userId = ((await created.json()) as { id: string }).id;
      assert.ok(
        first
          .stdout()
          .split('\n')
          .some((l) => l.startsWith('{') && JSON.parse(l).msg === 'request'),
        'JSON request logs on stdout',
      );
    } finally {
      await stop(first);
    }
    assert.ok(existsSync(join(runDir, 'gatehouse-data', 'gatehouse.db')));
    assert.ok(existsSync(join(home, '.cache', 'gatehouse')), 'addons cached under ~/.cache/gatehouse');

    const second = await start();
    t.diagnostic(`restart to "Listening": ${Math.round(second.startMs)} ms`);
    try {
      const db = openDb();
      try {
        assert.equal((db.prepare('select id from users where primary_email = ?').get('kept@example.com') as { id: string }).id, userId);
      } finally {
        db.close();
      }
      // The internal project's keys stored on the first start still work.
      const again = await fetch(`${second.url}/api/v1/users`, {
        method: 'POST',
        headers: SERVER_HEADERS,
        body: JSON.stringify({ primary_email: 'second@example.com' }),
      });
      assert.equal(again.status, 201);
      const backup = run(['backup', join(work, 'backup.db')]);
      assert.equal(backup.status, 0, backup.stderr);
      const copy = openDb(join(work, 'backup.db'));
      try {
        assert.equal((copy.prepare('select count(*) as n from users').get() as { n: number }).n, 2);
      } finally {
        copy.close();
      }
    } finally {
      await stop(second);
    }
  });

  it('rewrites a tampered cached addon and refuses a cache folder others can write to', async () => {
    const cache = join(home, '.cache', 'gatehouse');
    const folder = readdirSync(cache)
      .map((d) => join(cache, d))
      .find((d) => existsSync(join(d, 'better_sqlite3.node')));
    assert.ok(folder, 'better_sqlite3.node is cached after the first start');
    const addon = join(folder, 'better_sqlite3.node');
    const original = readFileSync(addon);
    writeFileSync(addon, Buffer.alloc(original.length));
    const proc = await start(['--data-dir', join(work, 'tamper')]);
    try {
      assert.equal((await fetch(`${proc.url}/health/ready`)).status, 200);
      assert.ok(readFileSync(addon).equals(original), 'the embedded bytes were written back');
    } finally {
      await stop(proc);
    }

    // A cache folder writable by others is not used; the addons go to a private folder under TMPDIR.
    const shared = join(work, 'shared-cache');
    const planted = join(shared, basename(folder));
    mkdirSync(planted, { recursive: true });
    chmodSync(planted, 0o777);
    const tmp = join(work, 'tmp');
    mkdirSync(tmp);
    const other = await spawnGatehouse([binary, '--port', '0', '--data-dir', join(work, 'tamper')], {
      cwd: runDir,
      env: { ...env, GATEHOUSE_CACHE_DIR: shared, TMPDIR: tmp },
    });
    try {
      assert.equal((await fetch(`${other.url}/health/ready`)).status, 200);
      assert.deepEqual(readdirSync(planted), [], 'nothing written to the shared folder');
      assert.ok(
        readdirSync(tmp).some((d) => d.startsWith('gatehouse-')),
        'addons written to a private temp folder',
      );
    } finally {
      await stop(other);
    }
  });

  it('renders email templates inside the binary (QuickJS wasm embedded; TSX compiled in process)', async () => {
    const dir = join(work, 'emails');
    const proc = await start(['--data-dir', dir]);
    try {
      const res = await fetch(`${proc.url}/api/v1/auth/password/sign-up`, {
        method: 'POST',
        headers: CLIENT_HEADERS,
        body: JSON.stringify({
          email: 'mail@example.com',
          password: 'mail password 123',
          verification_callback_url: 'http://localhost:3000/handler/email-verification',
        }),
      });
      assert.equal(res.status, 200, await res.clone().text());
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await stop(proc);
    }
    const problems = proc
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{') && JSON.parse(l).level !== 'info');
    assert.deepEqual(problems, [], 'no warnings or errors (a failed template logs "email template failed")');
    const db = openDb(join(dir, 'gatehouse.db'));
    try {
      const hasEmails = db.prepare("select name from sqlite_master where type = 'table' and name = 'emails'").get();
      if (hasEmails) {
        const email = db.prepare("select * from emails where subject like '%erif%'").get() as { html?: string } | undefined;
        assert.ok(email, 'a verification email was queued');
        assert.match(email.html ?? '', /<html/i);
      }
    } finally {
      db.close();
    }
  });

  it('kill -9 during a burst of sign-ups loses no acknowledged sign-up, and the database stays intact', async (t) => {
    const proc = await start(['--data-dir', join(work, 'burst')]);
    // The password sign-up route when it exists, else user creation with the server key.
    const probe = await fetch(`${proc.url}/api/v1/auth/password/sign-up`, {
      method: 'POST',
      headers: CLIENT_HEADERS,
      body: JSON.stringify({ email: 'probe@example.com', password: 'probe password 123' }),
    });
    const signUpRoute = probe.status !== 404;
    // This test measures durability under a burst, not abuse: turn the internal project's
    // throttling off (30 sign-ups per hour per address by default; docs/security.md).
    const unthrottled = await fetch(`${proc.url}/api/v1/internal/projects/current`, {
      method: 'PATCH',
      headers: {
        ...SERVER_HEADERS,
        'x-stack-access-type': 'admin',
        'x-stack-super-secret-admin-key': SEED_KEYS.GATEHOUSE_SEED_INTERNAL_SUPER_SECRET_ADMIN_KEY,
      },
      body: JSON.stringify({ config: { rate_limits: { enabled: false } } }),
    });
    assert.equal(unthrottled.status, 200, await unthrottled.text());
    t.diagnostic(`sign-ups through ${signUpRoute ? 'POST /auth/password/sign-up' : 'POST /users (server key)'}`);
    const acknowledged: string[] = signUpRoute && probe.ok ? ['probe@example.com'] : [];
    let sent = 0;
    let killed = false;
    const worker = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const email = `burst-${w}-${i}@example.com`;
        sent++;
        try {
          const res = signUpRoute
            ? await fetch(`${proc.url}/api/v1/auth/password/sign-up`, {
                method: 'POST',
                headers: CLIENT_HEADERS,
                body: JSON.stringify({ email, password: 'burst password 123' }),
              })
            : await fetch(`${proc.url}/api/v1/users`, {
                method: 'POST',
                headers: SERVER_HEADERS,
                body: JSON.stringify({ primary_email: email, password: 'burst password 123', primary_email_auth_enabled: true }),
              });
          if (res.ok) acknowledged.push(email);
          else if (!killed) assert.fail(`sign-up answered ${res.status}: ${await res.text()}`);
        } catch (error) {
          if (!killed)
            throw new Error(
              `request failed before the kill: ${(error as Error).message} ${String((error as Error).cause ?? '')}\n${proc.stderr()}`,
            );
        }
      }
    };
    const workers = Array.from({ length: 16 }, (_, w) => worker(w));
    const failed = Promise.all(workers).then(
      () => undefined,
      (error: unknown) => error,
    );
    // Kill once at least 10 sign-ups are acknowledged (16 more are in flight), or after 20 s.
    const enough = new Promise((resolve) => {
      const started = Date.now();
      const poll = setInterval(() => {
        if (acknowledged.length >= 10 || Date.now() - started > 20_000) {
          clearInterval(poll);
          resolve('burst ran');
        }
      }, 20);
    });
    const early = await Promise.race([failed, enough]);
    killed = true;
    proc.child.kill('SIGKILL');
    await Promise.allSettled(workers);
    if (early !== 'burst ran') throw early;
    assert.equal((await proc.exited).signal, 'SIGKILL');
    assert.ok(acknowledged.length >= 10, `only ${acknowledged.length} sign-ups went through in 20 s`);

    const restarted = await start(['--data-dir', join(work, 'burst')]);
    let readyMs: number;
    try {
      const t0 = performance.now();
      assert.equal((await fetch(`${restarted.url}/health/ready`)).status, 200);
      readyMs = restarted.startMs + (performance.now() - t0);
      const db = openDb(join(work, 'burst', 'gatehouse.db'));
      try {
        assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
        const present = new Set(
          (db.prepare('select primary_email from users').all() as { primary_email: string }[]).map((r) => r.primary_email),
        );
        const missing = acknowledged.filter((e) => !present.has(e));
        assert.deepEqual(missing, [], 'every acknowledged sign-up survived');
      } finally {
        db.close();
      }
    } finally {
      await stop(restarted);
    }
    t.diagnostic(
      `${sent} sign-ups sent, ${acknowledged.length} acknowledged before kill -9; restart to first ready response ${Math.round(readyMs)} ms`,
    );
  });
});
