import { createCipheriv, createHash, pbkdf2, scrypt, timingSafeEqual, type BinaryLike, type ScryptOptions } from 'node:crypto';
import argon2 from 'argon2';
import bcrypt from 'bcryptjs';

/**
 * The password-hash formats Gatehouse verifies: its own argon2id and the
 * formats other providers export, accepted as `password_hash` on `POST /users` / `PATCH
 * /users/{id}` and upgraded to argon2id on the next successful sign-in (hashing.ts). Each format
 * parses a hash string into its parameters, refusing malformed strings and parameters too costly
 * to verify (a hash is attacker-chosen input: its cost bounds are a denial-of-service guard), and
 * verifies with a well-kept library or node:crypto's asynchronous scrypt / pbkdf2 (libuv's thread
 * pool, never the sync forms). Firebase's modified scrypt carries its project's hash parameters
 * inside the string (`$firebase-scrypt$…`, see below). Plain salted SHA-256 / MD5 digests are
 * `insecure` formats: accepted only where the caller says so explicitly (the bulk import's
 * `allow_insecure_hashes`), refused on `POST /users`, and re-hashed at the first sign-in like
 * any import.
 */
export interface PasswordHashFormat {
  /** Short name, e.g. `bcrypt`, `argon2`, `scrypt-better-auth`. */
  readonly name: string;
  /** A legacy, insecure format (fast unsalted or salted digests): accepted only when asked for. */
  readonly insecure?: boolean;
  /** The parsed hash, or null when the string is not this format or its costs are out of bounds. */
  parse(hash: string): object | null;
  /** True when `password` matches; `parsed` is what `parse` returned. */
  verify(parsed: object, password: string, hash: string): Promise<boolean>;
}

const scryptAsync = (password: BinaryLike, salt: BinaryLike, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scrypt(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))));
const pbkdf2Async = (password: string, salt: BinaryLike, iterations: number, keylen: number, digest: string) =>
  new Promise<Buffer>((resolve, reject) =>
    pbkdf2(password, salt, iterations, keylen, digest, (error, key) => (error ? reject(error) : resolve(key))),
  );

/** Constant-time equality of a derived key and the stored one (lengths are public: they are in the hash). */
function sameKey(derived: Buffer, stored: Buffer): boolean {
  return derived.length === stored.length && timingSafeEqual(derived, stored);
}

/** Decodes standard or PHC / passlib base64 (`.` for `+`, padding optional); null when invalid. */
function base64(text: string): Buffer | null {
  if (!/^[A-Za-z0-9+/.]*={0,2}$/.test(text) || text.length === 0) return null;
  return Buffer.from(text.replace(/\./g, '+'), 'base64');
}

// Cost bounds of imported hashes: above the strongest settings in common use, below what would let
// one sign-in attempt occupy a thread-pool thread for many seconds or hundreds of MiB.
const MAX_SCRYPT_MEMORY = 256 * 1024 * 1024; // bytes, 128 · N · r · p
const MAX_PBKDF2_ITERATIONS = 2_000_000;
const MAX_ARGON2_MEMORY_KIB = 262_144;
const MAX_ARGON2_TIME = 16;

interface ScryptParams {
  salt: Buffer | string;
  key: Buffer;
  N: number;
  r: number;
  p: number;
  normalize: boolean;
}

function verifyScrypt(parsed: object, password: string): Promise<boolean> {
  const { salt, key, N, r, p, normalize } = parsed as ScryptParams;
  return scryptAsync(normalize ? password.normalize('NFKC') : password, salt, key.length, { N, r, p, maxmem: 2 * 128 * N * r * p }).then(
    (derived) => sameKey(derived, key),
  );
}

function scryptParams(N: number, r: number, p: number): boolean {
  return (
    Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0 && r >= 1 && r <= 64 && p >= 1 && p <= 16 && 128 * N * r * p <= MAX_SCRYPT_MEMORY
  );
}

interface Pbkdf2Params {
  digest: string;
  iterations: number;
  salt: Buffer | string;
  key: Buffer;
}
const PBKDF2_DIGESTS: Record<string, string> = { sha1: 'sha1', sha256: 'sha256', sha512: 'sha512' };

function verifyPbkdf2(parsed: object, password: string): Promise<boolean> {
  const { digest, iterations, salt, key } = parsed as Pbkdf2Params;
  return pbkdf2Async(password, salt, iterations, key.length, digest).then((derived) => sameKey(derived, key));
}

function pbkdf2Params(digestName: string, iterations: number, salt: Buffer | string | null, key: Buffer | null): Pbkdf2Params | null {
  const digest = PBKDF2_DIGESTS[digestName];
  if (!digest || salt === null || key === null || key.length < 16 || key.length > 128) return null;
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > MAX_PBKDF2_ITERATIONS) return null;
  return { digest, iterations, salt, key };
}

interface FirebaseScryptParams {
  salt: Buffer;
  key: Buffer;
  signerKey: Buffer;
  N: number;
  r: number;
}

/**
 * Firebase's modified scrypt (github.com/firebase/scrypt, lib/scryptenc/scryptenc.c): the key is
 * scrypt(password, salt ‖ salt separator, N = 2^mem_cost, r = rounds, p = 1, 64 bytes); the
 * stored hash is the project's signer key encrypted with AES-256-CTR under the key's first 32
 * bytes, counter starting at zero.
 */
function verifyFirebaseScrypt(parsed: object, password: string): Promise<boolean> {
  const { salt, key, signerKey, N, r } = parsed as FirebaseScryptParams;
  return scryptAsync(password, salt, 64, { N, r, p: 1, maxmem: 2 * 128 * N * r }).then((derived) => {
    const cipher = createCipheriv('aes-256-ctr', derived.subarray(0, 32), Buffer.alloc(16));
    return sameKey(Buffer.concat([cipher.update(signerKey), cipher.final()]), key);
  });
}

/**
 * The string Gatehouse stores for a Firebase account: the account's `passwordHash` and `salt`
 * (base64, as `firebase auth:export` writes them) with the project's hash parameters (Firebase
 * console → Authentication → Users → "Password hash parameters"):
 * `$firebase-scrypt$r=<rounds>,m=<mem_cost>$<salt>$<salt separator>$<signer key>$<hash>`, each
 * binary part in standard base64.
 */
export function firebaseScryptHash(
  account: { passwordHash: string; salt: string },
  config: { base64_signer_key: string; base64_salt_separator: string; rounds: number; mem_cost: number },
): string {
  return `$firebase-scrypt$r=${config.rounds},m=${config.mem_cost}$${account.salt}$${config.base64_salt_separator}$${config.base64_signer_key}$${account.passwordHash}`;
}

interface DigestParams {
  algorithm: 'md5' | 'sha256';
  salt: string;
  digest: Buffer;
}

/** The registry, tried in order; the first format whose `parse` accepts a string verifies it. */
export const PASSWORD_HASH_FORMATS: readonly PasswordHashFormat[] = [
  {
    // `$2a$`, `$2b$`, `$2y$` (bcryptjs verifies all three); rounds above 16 refused, as upstream
    // (https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/verification-code-handler.tsx).
    name: 'bcrypt',
    parse: (hash) =>
      /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/.test(hash) && Number(hash.slice(4, 6)) >= 4 && Number(hash.slice(4, 6)) <= 16 ? {} : null,
    verify: (_parsed, password, hash) => bcrypt.compare(password, hash),
  },
  {
    // PHC strings of the argon2 package (and libargon2): `$argon2id$v=19$m=…,t=…,p=…$salt$hash`.
    name: 'argon2',
    parse: (hash) => {
      // Parameters in either order: libargon2 writes `m=,t=,p=`, the argon2 package `m=,p=,t=`.
      const match =
        /^\$argon2(?:id|i|d)\$(?:v=(?:16|19)\$)?([mtp]=\d{1,7},[mtp]=\d{1,7},[mtp]=\d{1,7})\$[A-Za-z0-9+/]{11,}\$[A-Za-z0-9+/]{16,}$/.exec(
          hash,
        );
      if (!match) return null;
      const params = Object.fromEntries(match[1]!.split(',').map((pair) => [pair[0], Number(pair.slice(2))]));
      const { m = 0, t = 0, p = 0 } = params;
      return Object.keys(params).length === 3 &&
        p >= 1 &&
        p <= 16 &&
        m >= 8 * p &&
        m <= MAX_ARGON2_MEMORY_KIB &&
        t >= 1 &&
        t <= MAX_ARGON2_TIME
        ? {}
        : null;
    },
    verify: (_parsed, password, hash) => argon2.verify(hash, password).catch(() => false),
  },
  {
    // Better Auth (https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/better-auth/src/crypto/password.ts): `<salt hex>:<key hex>`, scrypt
    // N=16384, r=16, p=1, dkLen=64 over the NFKC-normalized password, the salt's hex TEXT as salt.
    name: 'scrypt-better-auth',
    parse: (hash) => {
      const match = /^([0-9a-f]{16,128}):([0-9a-f]{128})$/.exec(hash);
      return match
        ? ({ salt: match[1]!, key: Buffer.from(match[2]!, 'hex'), N: 16384, r: 16, p: 1, normalize: true } satisfies ScryptParams)
        : null;
    },
    verify: verifyScrypt,
  },
  {
    // PHC / passlib: `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt b64>$<key b64>`.
    name: 'scrypt-phc',
    parse: (hash) => {
      const match = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/.]+)\$([A-Za-z0-9+/.]+)$/.exec(hash);
      if (!match) return null;
      const [N, r, p] = [2 ** Number(match[1]), Number(match[2]), Number(match[3])];
      const salt = base64(match[4]!);
      const key = base64(match[5]!);
      if (!scryptParams(N, r, p) || !salt || !key || key.length < 16 || key.length > 128) return null;
      return { salt, key, N, r, p, normalize: false } satisfies ScryptParams;
    },
    verify: verifyScrypt,
  },
  {
    // Django (django/contrib/auth/hashers.py): `pbkdf2_sha256$<iterations>$<salt>$<key base64>`,
    // the salt's text as salt; `pbkdf2_sha1` likewise, and `pbkdf2_sha512` in the same layout.
    name: 'pbkdf2-django',
    parse: (hash) => {
      const match = /^pbkdf2_(sha1|sha256|sha512)\$(\d{1,8})\$([A-Za-z0-9./+=_-]{1,128})\$([A-Za-z0-9+/]+={0,2})$/.exec(hash);
      return match ? pbkdf2Params(match[1]!, Number(match[2]), match[3]!, base64(match[4]!)) : null;
    },
    verify: verifyPbkdf2,
  },
  {
    // PHC / passlib: `$pbkdf2-sha256$<iterations>$<salt b64>$<key b64>` (also `i=<iterations>`).
    name: 'pbkdf2-phc',
    parse: (hash) => {
      const match = /^\$pbkdf2(?:-(sha256|sha512))?\$(?:i=)?(\d{1,8})\$([A-Za-z0-9+/.]+)\$([A-Za-z0-9+/.]+)$/.exec(hash);
      return match ? pbkdf2Params(match[1] ?? 'sha1', Number(match[2]), base64(match[3]!), base64(match[4]!)) : null;
    },
    verify: verifyPbkdf2,
  },
  {
    // Firebase's modified scrypt with its project parameters (firebaseScryptHash); Firebase's
    // rounds go up to 8 and mem_cost up to 14.
    name: 'scrypt-firebase',
    parse: (hash) => {
      const match =
        /^\$firebase-scrypt\$r=(\d{1,2}),m=(\d{1,2})\$([A-Za-z0-9+/]*={0,2})\$([A-Za-z0-9+/]*={0,2})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/.exec(
          hash,
        );
      if (!match) return null;
      const [N, r] = [2 ** Number(match[2]), Number(match[1])];
      const [salt, separator, signerKey, key] = [3, 4, 5, 6].map((i) => Buffer.from(match[i]!, 'base64'));
      if (!scryptParams(N, r, 1) || signerKey!.length < 16 || signerKey!.length > 128 || key!.length !== signerKey!.length) return null;
      return { salt: Buffer.concat([salt!, separator!]), key: key!, signerKey: signerKey!, N, r } satisfies FirebaseScryptParams;
    },
    verify: verifyFirebaseScrypt,
  },
  {
    // Legacy, insecure: `$legacy-md5$<salt>$<hex>` / `$legacy-sha256$<salt>$<hex>`, the digest
    // of salt ‖ password (the salt may be empty: an unsalted digest). Only with the explicit flag.
    name: 'legacy-digest',
    insecure: true,
    parse: (hash) => {
      const match = /^\$legacy-(md5|sha256)\$([^$]{0,128})\$([0-9a-f]+)$/.exec(hash);
      if (!match || match[3]!.length !== (match[1] === 'md5' ? 32 : 64)) return null;
      return {
        algorithm: match[1] as DigestParams['algorithm'],
        salt: match[2]!,
        digest: Buffer.from(match[3]!, 'hex'),
      } satisfies DigestParams;
    },
    verify: async (parsed, password) => {
      const { algorithm, salt, digest } = parsed as DigestParams;
      return sameKey(
        createHash(algorithm)
          .update(salt + password, 'utf8')
          .digest(),
        digest,
      );
    },
  },
];

/** The format of a hash string and its parsed parameters, or null when no format accepts it. */
export function parsePasswordHash(hash: string): { format: PasswordHashFormat; parsed: object } | null {
  for (const format of PASSWORD_HASH_FORMATS) {
    const parsed = format.parse(hash);
    if (parsed) return { format, parsed };
  }
  return null;
}

/**
 * True when Gatehouse can verify `hash`: the check of an imported `password_hash`. Insecure
 * formats (legacy digests) count only with `allowInsecure`.
 */
export function isSupportedPasswordHash(hash: string, options: { allowInsecure?: boolean } = {}): boolean {
  const known = parsePasswordHash(hash);
  return known !== null && (!known.format.insecure || options.allowInsecure === true);
}
