import { sha256Hex } from '../lib/hash.ts';
import { secureRandomString } from '../lib/random.ts';

/** How many recovery codes one creation yields (Gatehouse extension, docs/mfa.md). */
export const RECOVERY_CODE_COUNT = 10;

/**
 * A new recovery code: 16 lowercase Crockford-base32 characters (80 bits) shown in four groups of
 * four, e.g. `7h2k-q9xm-3bcd-ne4r`. 80 bits keep the stored SHA-256 beyond offline guessing.
 */
export function generateRecoveryCode(): string {
  return secureRandomString(80).match(/.{4}/g)!.join('-');
}

/**
 * The stored form of a recovery code as typed: dashes and spaces dropped, lowercased, and the
 * Crockford look-alikes (i, l → 1; o → 0) mapped, then SHA-256 hex.
 */
export function hashRecoveryCode(input: string): string {
  const normalized = input.toLowerCase().replace(/[\s-]/g, '').replace(/[il]/g, '1').replace(/o/g, '0');
  return sha256Hex(`mfa-recovery:${normalized}`);
}
