import argon2 from 'argon2';
import bcrypt from 'bcryptjs';

/**
 * argon2id at the OWASP parameters: m = 19 MiB, t = 2, p = 1 (OWASP Password Storage Cheat
 * Sheet). Hashing runs on libuv's thread pool, never inside a database transaction.
 */
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password with argon2id; returns the PHC string. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
}

/** True for bcrypt hashes (`$2a$`, `$2b$`, `$2y$`), the only form accepted as `password_hash`. */
export function isBcryptHash(hash: string): boolean {
  return /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/.test(hash);
}

/** Rounds of a bcrypt hash; imports above 16 rounds are refused (wire-protocol §7). */
export function bcryptRounds(hash: string): number {
  return Number(hash.slice(4, 6));
}

/**
 * Verifies a password against a stored argon2id or bcrypt hash.
 *
 * @returns `ok`, and `needsRehash` when the hash is not argon2id at the current parameters
 *   (imported bcrypt hashes are upgraded on the next successful sign-in).
 */
export async function verifyPassword(hash: string, password: string): Promise<{ ok: boolean; needsRehash: boolean }> {
  if (isBcryptHash(hash)) {
    return { ok: await bcrypt.compare(password, hash), needsRehash: true };
  }
  try {
    const ok = await argon2.verify(hash, password);
    return { ok, needsRehash: ok && argon2.needsRehash(hash, ARGON2_OPTIONS) };
  } catch {
    return { ok: false, needsRehash: false };
  }
}

// A real hash of a random password, verified against when the user does not exist, so an unknown
// email costs the same time as a known one (no account enumeration through timing).
let dummyHash: Promise<string> | undefined;

/** Spends the time of one password verification without a user. Always resolves to false. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}`);
  await verifyPassword(await dummyHash, password);
  return false;
}
