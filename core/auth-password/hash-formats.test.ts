import assert from 'node:assert/strict';
import { createHash, pbkdf2Sync, randomBytes, scryptSync } from 'node:crypto';
import { it } from 'node:test';
import argon2 from 'argon2';
import bcrypt from 'bcryptjs';
import { createCoreProject, describeWithCore } from '../../test/helpers/core-client.ts';
import { firebaseScryptHash, isSupportedPasswordHash } from './hash-formats.ts';
import { PASSWORD_HASH_COST, verifyPassword } from './hashing.ts';

/**
 * Imported password hashes of other providers are accepted as `password_hash`,
 * verified at sign-in and upgraded to argon2id. The vectors are made here by the real libraries
 * (bcryptjs, argon2) and by node:crypto following each format's published layout (Better Auth's
 * https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/better-auth/src/crypto/password.ts, Django's django/contrib/auth/hashers.py, PHC).
 * The sync node:crypto forms are fine in a test; the server uses the async ones.
 */
const PASSWORD = 'correct horse battery';
const UPSTREAM_BAD_HASH = "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.";
const unpadded = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

function betterAuthScrypt(password: string): string {
  const salt = randomBytes(16).toString('hex');
  const key = scryptSync(password.normalize('NFKC'), salt, 64, { N: 16384, r: 16, p: 1, maxmem: 64 * 1024 * 1024 });
  return `${salt}:${key.toString('hex')}`;
}

function phcScrypt(password: string): string {
  const salt = randomBytes(16);
  return `$scrypt$ln=14,r=8,p=1$${unpadded(salt)}$${unpadded(scryptSync(password, salt, 32, { N: 2 ** 14, r: 8, p: 1 }))}`;
}

function djangoPbkdf2(password: string, digest: 'sha1' | 'sha256', iterations: number): string {
  const salt = randomBytes(16).toString('base64url').slice(0, 22);
  const key = pbkdf2Sync(password, salt, iterations, digest === 'sha1' ? 20 : 32, digest);
  return `pbkdf2_${digest}$${iterations}$${salt}$${key.toString('base64')}`;
}

function phcPbkdf2Sha512(password: string): string {
  const salt = randomBytes(16);
  return `$pbkdf2-sha512$25000$${unpadded(salt).replace(/\+/g, '.')}$${unpadded(pbkdf2Sync(password, salt, 25000, 64, 'sha512')).replace(/\+/g, '.')}`;
}

/**
 * Firebase's published test values (github.com/firebase/scrypt README.md "Password Hashing"):
 * the sample project's hash parameters and user1's exported hash and salt, password `user1password`.
 */
const FIREBASE_CONFIG = {
  base64_signer_key: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
  base64_salt_separator: 'Bw==',
  rounds: 8,
  mem_cost: 14,
};
const FIREBASE_USER1 = {
  passwordHash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
  salt: '42xEC+ixf3L2lw==',
};

it("verifies Firebase's published modified-scrypt vector and refuses a wrong password or salt separator", async () => {
  const hash = firebaseScryptHash(FIREBASE_USER1, FIREBASE_CONFIG);
  assert.deepEqual(await verifyPassword(hash, 'user1password', PASSWORD_HASH_COST), { ok: true, needsRehash: true });
  assert.deepEqual(await verifyPassword(hash, 'user1password!', PASSWORD_HASH_COST), { ok: false, needsRehash: false });
  assert.equal(
    (
      await verifyPassword(
        firebaseScryptHash(FIREBASE_USER1, { ...FIREBASE_CONFIG, base64_salt_separator: 'CA==' }),
        'user1password',
        PASSWORD_HASH_COST,
      )
    ).ok,
    false,
  );
  assert.equal(
    isSupportedPasswordHash(firebaseScryptHash(FIREBASE_USER1, { ...FIREBASE_CONFIG, mem_cost: 30 })),
    false,
    'mem_cost 30 is 2^30 blocks: refused',
  );
});

it('accepts legacy MD5 / SHA-256 digests only when asked for, and verifies them', async () => {
  const md5 = `$legacy-md5$$${createHash('md5').update(PASSWORD).digest('hex')}`;
  const sha = `$legacy-sha256$pepper$${createHash('sha256').update(`pepper${PASSWORD}`).digest('hex')}`;
  for (const hash of [md5, sha]) {
    assert.equal(isSupportedPasswordHash(hash), false, hash);
    assert.equal(isSupportedPasswordHash(hash, { allowInsecure: true }), true, hash);
    assert.deepEqual(await verifyPassword(hash, PASSWORD, PASSWORD_HASH_COST), { ok: true, needsRehash: true });
    assert.equal((await verifyPassword(hash, `${PASSWORD}!`, PASSWORD_HASH_COST)).ok, false);
  }
  assert.equal(isSupportedPasswordHash(`$legacy-md5$$${'a'.repeat(64)}`, { allowInsecure: true }), false, 'an MD5 digest is 32 hex digits');
});

async function vectors(): Promise<Array<[string, string, string?]>> {
  const bcryptHash = bcrypt.hashSync(PASSWORD, 4);
  return [
    ['bcrypt $2a$', bcryptHash.replace(/^\$2.\$/, '$2a$')],
    ['bcrypt $2b$', bcryptHash.replace(/^\$2.\$/, '$2b$')],
    ['bcrypt $2y$', bcryptHash.replace(/^\$2.\$/, '$2y$')],
    ['argon2id (other parameters)', await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 4096, timeCost: 1, parallelism: 1 })],
    ['argon2i', await argon2.hash(PASSWORD, { type: argon2.argon2i, memoryCost: 4096, timeCost: 2, parallelism: 1 })],
    ['scrypt, Better Auth salt:key', betterAuthScrypt(PASSWORD)],
    ['scrypt, PHC', phcScrypt(PASSWORD)],
    ['PBKDF2-SHA256, Django', djangoPbkdf2(PASSWORD, 'sha256', 20000)],
    ['PBKDF2-SHA1, Django', djangoPbkdf2(PASSWORD, 'sha1', 20000)],
    ['PBKDF2-SHA512, PHC', phcPbkdf2Sha512(PASSWORD)],
    ['Firebase scrypt (published vector)', firebaseScryptHash(FIREBASE_USER1, FIREBASE_CONFIG), 'user1password'],
  ];
}

// The real argon2id cost (the OWASP parameters), which upgraded hashes must reach.
describeWithCore(
  'imported password hash formats',
  (get) => {
    it('verifies each imported format at sign-in, refuses a wrong password, and upgrades the hash to argon2id', async () => {
      const t = get();
      const { client, server: serverCaller } = await createCoreProject(t);
      const db = t.core.runtime.db;
      const storedHash = async (id: string) =>
        (await db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow()).password_hash;
      for (const [i, [label, hash, password = PASSWORD]] of (await vectors()).entries()) {
        const email = `imported${i}@example.com`;
        const created = await t.call<{ id: string }>('users.create', serverCaller, { body: { primary_email: email, password_hash: hash } });
        assert.equal(await storedHash(created.id), hash, label);
        await t.refuses('authPassword.signIn', client, { body: { email, password: `${password}!` } }, 'EMAIL_PASSWORD_MISMATCH');
        assert.equal(await storedHash(created.id), hash, `${label}: a failed sign-in keeps the imported hash`);
        await t.call('authPassword.signIn', client, { body: { email, password } });
        assert.match((await storedHash(created.id)) ?? '', /^\$argon2id\$v=19\$m=19456,p=1,t=2\$/, label);
        // After the upgrade.
        await t.call('authPassword.signIn', client, { body: { email, password } });
      }
    });

    it('accepts the formats on users.update and refuses unknown, malformed and too costly hashes with upstream error', async () => {
      const t = get();
      const { client, server: serverCaller } = await createCoreProject(t);
      const user = await t.call<{ id: string }>('users.create', serverCaller, { body: { primary_email: 'patched@example.com' } });
      await t.call('users.update', serverCaller, { params: { user_id: user.id }, body: { password_hash: betterAuthScrypt(PASSWORD) } });
      await t.call('authPassword.signIn', client, { body: { email: 'patched@example.com', password: PASSWORD } });
      const good = betterAuthScrypt(PASSWORD);
      const refused = [
        'not a hash',
        '5f4dcc3b5aa765d61d8327deb882cf99', // plain MD5
        'ef92b778bafe771e89245b89ecbc08a44a4e166c06659911881f383d4473e94f', // plain SHA-256
        `${good.slice(0, -2)}`, // Better Auth key cut short
        `${good.split(':')[0]}:${'zz'.repeat(64)}`, // not hex
        '$2a$17$' + 'a'.repeat(53), // bcrypt above 16 rounds
        '$2a$10$' + 'a'.repeat(52), // bcrypt one character short
        '$argon2id$v=19$m=4194304,t=2,p=1$c29tZXNhbHRzb21l$' + 'A'.repeat(43), // 4 GiB argon2
        '$scrypt$ln=24,r=8,p=1$c29tZXNhbHQ$' + 'A'.repeat(43), // 2 GiB scrypt
        'pbkdf2_sha256$99999999$salt$' + 'A'.repeat(43) + '=', // 10^8 iterations
        'pbkdf2_md5$1000$salt$' + 'A'.repeat(43) + '=', // unknown digest
        `$legacy-md5$$${'0'.repeat(32)}`, // legacy digest: only through the import's explicit flag
      ];
      for (const hash of refused) {
        for (const [operationId, input] of [
          ['users.create', { body: { primary_email: 'refused@example.com', password_hash: hash } }],
          ['users.update', { params: { user_id: user.id }, body: { password_hash: hash } }],
        ] as const) {
          const error = await t.core.invoke(operationId, serverCaller, input).then(
            () => assert.fail(`${operationId} accepted ${hash}`),
            (e: unknown) => e as { status?: number; kind?: string; message: string; code?: string; details?: unknown },
          );
          const status = error.status ?? (error.kind === 'bad-request' ? 400 : undefined);
          assert.equal(status, 400, `${hash}: ${String(error)}`);
          const text = JSON.stringify({ message: error.message, code: error.code, details: error.details });
          assert.ok(text.includes(UPSTREAM_BAD_HASH), `${hash}: ${text}`);
        }
      }
    });
  },
  { testPasswordHashing: false },
);
