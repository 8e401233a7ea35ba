import argon2 from 'argon2';
import { AdmissionQueue, cpuBudget, type AdmissionOptions, type AdmissionReservation, type AdmissionStats } from '../lib/admission.ts';
import { parsePasswordHash } from './hash-formats.ts';

/** The cost of an argon2id hash: memory in KiB and passes (parallelism is always 1). */
export interface PasswordHashCost {
  readonly memoryCost: number;
  readonly timeCost: number;
}

/**
 * argon2id at the OWASP parameters: m = 19 MiB, t = 2, p = 1 (OWASP Password Storage Cheat
 * Sheet), every core's cost unless a test suite asks for TEST_PASSWORD_HASH_COST. Hashing runs
 * on libuv's thread pool, never inside a database transaction.
 */
export const PASSWORD_HASH_COST: PasswordHashCost = { memoryCost: 19456, timeCost: 2 };

/**
 * Tests only (the `testPasswordHashing` core option, refused in production): m = 256 KiB, t = 1,
 * about 1/40 of the CPU of a real hash, for test suites that sign users up and in by the
 * thousand. Still argon2id through the same code; a core at PASSWORD_HASH_COST rehashes such a
 * hash on the next sign-in, as any outdated one.
 */
export const TEST_PASSWORD_HASH_COST: PasswordHashCost = { memoryCost: 256, timeCost: 1 };

const argon2Options = (cost: PasswordHashCost) =>
  ({ type: argon2.argon2id, memoryCost: cost.memoryCost, timeCost: cost.timeCost, parallelism: 1 }) as const;

/**
 * Every hash and verification of this process goes through one admission queue (core/lib/
 * admission.ts): by default as many at once as the CPU budget allows (cores − 1, at least 1,
 * shared among `--workers` processes) and 64 waiting; beyond that a retryable 429 with
 * `Retry-After`. Without it a burst of sign-ups puts argon2 on every thread-pool thread and
 * every core, and reads on the same process stall.
 */
const hashing = new AdmissionQueue({ concurrency: cpuBudget(), maxQueued: 64, label: 'password hashing' });

/** Sets the password-hashing limits of this process (GATEHOUSE_HASH_CONCURRENCY, GATEHOUSE_HASH_QUEUE). */
export function configurePasswordHashing(options: Partial<Pick<AdmissionOptions, 'concurrency' | 'maxQueued'>>): void {
  hashing.configure(options);
}

/** Running, waiting, refused and completed hash jobs of this process, with the limits. */
export function passwordHashingStats(): AdmissionStats & { concurrency: number; maxQueued: number } {
  return { ...hashing.stats(), concurrency: hashing.options.concurrency, maxQueued: hashing.options.maxQueued };
}

/**
 * Holds a place in the hashing queue before a caller records anything (sign-in reserves before
 * it counts an attempt, so a busy server never counts toward an account's lock). Pass it to
 * verifyPassword / verifyAgainstDummy, and `release()` it in a `finally`.
 *
 * @throws RateLimitError (429 with `Retry-After`) when the queue is full.
 */
export function reserveHashing(): AdmissionReservation {
  return hashing.reserve();
}

/**
 * Hashes a password with argon2id at `cost` (the core's: `ctx.runtime.passwordHashCost`);
 * returns the PHC string.
 *
 * @throws RateLimitError (429 with `Retry-After`) when the hashing queue is full.
 */
export function hashPassword(password: string, cost: PasswordHashCost): Promise<string> {
  return hashing.run(() => argon2.hash(password, argon2Options(cost)));
}

/**
 * Verifies a password against a stored hash: Gatehouse's argon2id or any imported format of the
 * registry (hash-formats.ts: bcrypt, argon2, scrypt, Firebase scrypt, PBKDF2, flagged legacy digests), all through the same admission
 * queue (docs/scaling.md "Admission control").
 *
 * @returns `ok`, and `needsRehash` when the hash is not argon2id at `cost` (the core's)
 *   (imported hashes are upgraded on the next successful sign-in). A malformed or unknown stored
 *   hash is a failed verification, never an error.
 * @param reservation a place taken with reserveHashing, used instead of queueing anew
 * @throws RateLimitError (429 with `Retry-After`) when the hashing queue is full.
 */
export async function verifyPassword(
  hash: string,
  password: string,
  cost: PasswordHashCost,
  reservation?: AdmissionReservation,
): Promise<{ ok: boolean; needsRehash: boolean }> {
  const known = parsePasswordHash(hash);
  // A full queue refuses (RateLimitError) before the verification starts; a library error on a
  // hash that passed parsing is a failed verification.
  return hashing.run(async () => {
    if (!known) return { ok: false, needsRehash: false };
    const ok = await known.format.verify(known.parsed, password, hash).catch(() => false);
    return { ok, needsRehash: ok && (known.format.name !== 'argon2' || argon2.needsRehash(hash, argon2Options(cost))) };
  }, reservation);
}

// A real hash of a random password at each cost, verified against when the user does not exist,
// so an unknown email costs the same time as a known one (no account enumeration through timing).
const dummyHashes = new Map<string, Promise<string>>();

/** Spends the time of one password verification at `cost` without a user. Always resolves to false. */
export async function verifyAgainstDummy(password: string, cost: PasswordHashCost, reservation?: AdmissionReservation): Promise<false> {
  const key = `${cost.memoryCost}/${cost.timeCost}`;
  let dummyHash = dummyHashes.get(key);
  if (!dummyHash) {
    // A refused first hash (full queue) must not stay cached: the next caller tries again.
    dummyHash = hashPassword(`dummy-${Math.random()}`, cost).catch((error: unknown) => {
      dummyHashes.delete(key);
      throw error;
    });
    dummyHashes.set(key, dummyHash);
  }
  await verifyPassword(await dummyHash, password, cost, reservation);
  return false;
}
