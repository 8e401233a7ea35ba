import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { README_MARKERS, SETTINGS, flagOptions, readmeTable, settingDefault, usageText } from './settings.ts';
import { ConfigError, resolveServerConfig } from './config.ts';
import { TURNSTILE_SITEVERIFY_URL } from '../core/runtime.ts';

const ROOT = join(import.meta.dirname, '..');

describe('the settings table', () => {
  it('is the README\'s "Running it" table (run `npm run gen:settings` when this fails)', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const start = readme.indexOf(README_MARKERS.start);
    const end = readme.indexOf(README_MARKERS.end);
    assert.ok(start >= 0 && end > start, 'README.md keeps the settings table markers');
    assert.equal(readme.slice(start + README_MARKERS.start.length, end).trim(), readmeTable());
  });

  it('names every GATEHOUSE_* variable the host reads, and only those', () => {
    const read = new Set<string>();
    for (const file of readdirSync(join(ROOT, 'server-bin'), { recursive: true }) as string[]) {
      if (!/\.ts$/.test(file) || /\.test\.ts$/.test(file) || file === 'settings.ts') continue;
      for (const m of readFileSync(join(ROOT, 'server-bin', file), 'utf8').matchAll(/\bGATEHOUSE_[A-Z_]+[A-Z]\b/g)) read.add(m[0]);
    }
    const listed = new Set(SETTINGS.flatMap((s) => s.env));
    assert.deepEqual([...read].filter((name) => !listed.has(name)).sort(), [], 'read by the host but missing from the table');
    assert.deepEqual([...listed].filter((name) => !read.has(name)).sort(), [], 'in the table but read nowhere');
  });

  it('gives --help and the flag parser every flag of the table', () => {
    const usage = usageText();
    for (const s of SETTINGS) {
      for (const name of s.env.slice(0, 1)) assert.match(usage, new RegExp(name), name);
      if (s.flag) {
        assert.match(usage, new RegExp(`--${s.flag}\\b`));
        assert.deepEqual(flagOptions()[s.flag], { type: 'string' });
      }
    }
    assert.equal(resolveServerConfig(['--data-dir', '/tmp/x'], {}).dataDir, '/tmp/x');
    assert.equal(resolveServerConfig([], { GATEHOUSE_DATA_DIR: '/tmp/y' }).dataDir, '/tmp/y');
    assert.throws(() => resolveServerConfig(['--not-a-setting', 'x'], {}), ConfigError);
  });

  it('is where the parser takes its literal defaults from (each one valid for the parser)', () => {
    const config = resolveServerConfig([], {});
    assert.deepEqual(
      [config.port, config.host, config.dataDir, config.workers, config.environment, config.trustedProxyHops, config.hashQueue],
      [8102, '127.0.0.1', './gatehouse-data', 1, 'production', 0, 64],
    );
    assert.equal(String(config.port), settingDefault('port'));
    assert.equal(config.dataDir, settingDefault('GATEHOUSE_DATA_DIR'));
    assert.throws(() => settingDefault('GATEHOUSE_SECRET'), /no literal default/);
    assert.throws(() => settingDefault('no-such-setting'), /no literal default/);
    // The server's Turnstile defaults are the library's (core/runtime.ts).
    assert.deepEqual(config.turnstile, { verifyUrl: TURNSTILE_SITEVERIFY_URL, timeoutMs: 3000 });
    assert.deepEqual(
      resolveServerConfig([], { GATEHOUSE_TURNSTILE_VERIFY_URL: 'http://127.0.0.1:9/siteverify', GATEHOUSE_TURNSTILE_TIMEOUT: '500ms' })
        .turnstile,
      { verifyUrl: 'http://127.0.0.1:9/siteverify', timeoutMs: 500 },
    );
    assert.throws(() => resolveServerConfig([], { GATEHOUSE_TURNSTILE_VERIFY_URL: 'file:///etc/passwd' }), ConfigError);
  });
});
