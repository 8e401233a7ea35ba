import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { pbkdf2Sync, randomBytes, scryptSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { describeWithServer } from '../test/helpers/suite.ts';
import { api, createProject, createProjectKeys } from '../test/helpers/api.ts';
import type { TestServer } from '../test/helpers/server.ts';
import { ConfigError } from './config.ts';
import { runImportCommand } from './import-command.ts';

/**
 * `gatehouse import` streams a file to a running server; users made with each
 * vendor's real hashing sign in with their original passwords afterwards and their hash becomes
 * argon2id. Hashes: bcrypt from bcryptjs (Auth0, Clerk, Supabase), Django's PBKDF2 layout and
 * Better Auth's scrypt layout through node:crypto (the `better-auth` package is not a dependency;
 * its layout is https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/better-auth/src/crypto/password.ts), Firebase's published test vector
 * (github.com/firebase/scrypt README.md) through `--from firebase`.
 */
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const FIREBASE_HASH_CONFIG = `hash_config {
  algorithm: SCRYPT,
  base64_signer_key: jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==,
  base64_salt_separator: Bw==,
  rounds: 8,
  mem_cost: 14,
}`;
const FIREBASE_EXPORT = {
  users: [
    {
      localId: 'kYi4EvWQlQTKSfnJ3dRSP6IH3ed2',
      email: 'user1@test.com',
      emailVerified: false,
      passwordHash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
      salt: '42xEC+ixf3L2lw==',
      displayName: 'Test User 1',
      createdAt: '1508893925000',
    },
  ],
};

async function setUp(server: TestServer) {
  const project = await createProject(server);
  const keys = await createProjectKeys(server, project.admin);
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-import-'));
  dirs.push(dir);
  const run = async (...args: string[]) => {
    let err = '';
    const summary = await runImportCommand(
      [...args, '--project', project.projectId, '--url', server.url, '--admin-key', keys.superSecretAdminKey],
      {},
      {
        out: () => {},
        err: (t) => {
          err += t;
        },
        progress: () => {},
      },
    );
    return { summary, err };
  };
  const write = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const storedHash = async (email: string) =>
    (
      await server.gatehouse.core.runtime.db
        .selectFrom('users')
        .select('password_hash')
        .where('project_id', '=', project.projectId)
        .where('primary_email', '=', email)
        .executeTakeFirstOrThrow()
    ).password_hash ?? '';
  const signIn = (email: string, password: string) => api(server, 'POST', '/auth/password/sign-in', project.client, { email, password });
  return { ...project, run, write, storedHash, signIn };
}

function djangoPbkdf2(password: string): string {
  const salt = randomBytes(12).toString('base64url');
  return `pbkdf2_sha256$600000$${salt}$${pbkdf2Sync(password, salt, 600000, 32, 'sha256').toString('base64')}`;
}

function betterAuthScrypt(password: string): string {
  const salt = randomBytes(16).toString('hex');
  return `${salt}:${scryptSync(password.normalize('NFKC'), salt, 64, { N: 16384, r: 16, p: 1, maxmem: 64 * 1024 * 1024 }).toString('hex')}`;
}

describeWithServer('gatehouse import (issue 30)', (get) => {
  it('imports NDJSON with bcrypt, Django PBKDF2 and Better Auth scrypt hashes; the users sign in with their passwords and get argon2id', async () => {
    const p = await setUp(get());
    const users = [
      { email: 'auth0@example.com', password: 'bcrypt password', hash: bcrypt.hashSync('bcrypt password', 10) },
      { email: 'django@example.com', password: 'django password', hash: djangoPbkdf2('django password') },
      { email: 'betterauth@example.com', password: 'better auth pässword', hash: betterAuthScrypt('better auth pässword') },
    ];
    const file = p.write(
      'users.ndjson',
      `${users.map((u, i) => JSON.stringify({ source_id: `src-${i}`, primary_email: u.email, primary_email_verified: true, password_hash: u.hash })).join('\n')}\n`,
    );

    const dry = await p.run(file, '--dry-run');
    assert.deepEqual({ ...dry.summary, seconds: 0 }, { records: 3, created: 3, updated: 0, failed: 0, seconds: 0 });
    assert.match(dry.err, /Dry run, nothing written/);
    assert.equal((await p.signIn(users[0]!.email, users[0]!.password)).status, 400, 'the dry run created nobody');

    const { summary } = await p.run(file, '--batch', '2');
    assert.deepEqual({ ...summary, seconds: 0 }, { records: 3, created: 3, updated: 0, failed: 0, seconds: 0 });
    for (const u of users) {
      assert.equal((await p.signIn(u.email, `${u.password}x`)).status, 400, u.email);
      assert.equal(await p.storedHash(u.email), u.hash, `${u.email}: stored as imported`);
      const ok = await p.signIn(u.email, u.password);
      assert.equal(ok.status, 200, `${u.email}: ${ok.text}`);
      // Upgraded to argon2id at the server's cost (the test servers' cheap one; core/auth-password/hash-formats.test.ts checks the real one).
      const cost = get().gatehouse.core.runtime.passwordHashCost;
      const upgraded = await p.storedHash(u.email);
      assert.ok(upgraded?.startsWith(`$argon2id$v=19$m=${cost.memoryCost},p=1,t=${cost.timeCost}$`), `${u.email}: ${upgraded}`);
    }
    // Idempotent: the same file again updates the same three users.
    const again = await p.run(file);
    assert.deepEqual({ ...again.summary, seconds: 0 }, { records: 3, created: 0, updated: 3, failed: 0, seconds: 0 });
  });

  it('imports a Firebase auth:export file with the project hash config (published vector), reports bad lines by number and exits 1', async () => {
    const p = await setUp(get());
    const exported = p.write('firebase.json', JSON.stringify(FIREBASE_EXPORT));
    const config = p.write('hash-config.txt', FIREBASE_HASH_CONFIG);
    const { summary } = await p.run('--from', 'firebase', exported, '--firebase-hash-config', config);
    assert.equal(summary?.created, 1);
    const ok = await p.signIn('user1@test.com', 'user1password');
    assert.equal(ok.status, 200, ok.text);
    assert.match(await p.storedHash('user1@test.com'), /^\$argon2id\$/);

    const mixed = p.write(
      'mixed.ndjson',
      [
        JSON.stringify({ primary_email: 'good@example.com' }),
        'not json',
        JSON.stringify({ primary_email: 'bad-hash@example.com', password_hash: 'md5:5f4dcc3b5aa765d61d8327deb882cf99' }),
        JSON.stringify({ primary_email: 'user1@test.com' }),
      ].join('\n'),
    );
    const previous = process.exitCode;
    const result = await p.run(mixed);
    assert.equal(process.exitCode, 1);
    process.exitCode = previous;
    assert.deepEqual({ ...result.summary, seconds: 0 }, { records: 4, created: 1, updated: 0, failed: 3, seconds: 0 });
    assert.match(result.err, /^line 2: MALFORMED_RECORD: /m);
    assert.match(result.err, /^line 3: UNSUPPORTED_PASSWORD_HASH: /m);
    assert.match(result.err, /^line 4: DUPLICATE_EMAIL: /m);

    await assert.rejects(p.run(join(exported, 'missing')), ConfigError);
    await assert.rejects(p.run('--from', 'firebase', exported), /firebase-hash-config/);
  });
});
