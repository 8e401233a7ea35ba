import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import { sha256Hex } from '../lib/hash.ts';
import type { SignUpRiskScores } from './rules.ts';
import { countRecentSignUps } from './queries.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Domains whose mailboxes ignore dots in the local part. */
const DOTLESS_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The "base" of an address, what several accounts of one person tend to share: lower case, the
 * `+tag` removed, and for Gmail the dots of the local part removed (`A.B+x@gmail.com` →
 * `ab@gmail.com`). Null without an email.
 */
export function emailBase(email: string | null): string | null {
  if (!email) return null;
  const normalized = email.trim().toLowerCase();
  const at = normalized.lastIndexOf('@');
  if (at <= 0) return null;
  let local = normalized.slice(0, at);
  const domain = normalized.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (DOTLESS_DOMAINS.has(domain)) local = local.replaceAll('.', '');
  return `${local}@${domain}`;
}

/**
 * Country of a sign-up. Gatehouse has no geolocation of its own, so in production this is null
 * (rules on `countryCode` see ""). Outside production, as upstream does for tests, an
 * `@example.com` address tagged with a two-letter code gives that country
 * (`user+ca@example.com` → `CA`).
 */
export function signUpCountryCode(email: string | null, environment: 'development' | 'production' | 'test'): string | null {
  if (!email || environment === 'production') return null;
  const match = /^[^+@]+\+([a-z]{2})@example\.com$/i.exec(email.trim());
  return match ? match[1]!.toUpperCase() : null;
}

/** What a sign-up leaves behind for later risk scores (hashes, never the address or email). */
export interface SignUpFacts {
  address_hash: string | null;
  email_base_hash: string | null;
}

/** The hashed facts of a sign-up, salted by project so no two projects' hashes compare. */
export function signUpFacts(projectId: string, clientAddress: string | null, email: string | null): SignUpFacts {
  const base = emailBase(email);
  return {
    address_hash: clientAddress ? sha256Hex(`${projectId}:address:${clientAddress}`) : null,
    email_base_hash: base ? sha256Hex(`${projectId}:email-base:${base}`) : null,
  };
}

/**
 * The sign-up risk scores (`risk_scores.sign_up` on the user; upstream computes them with a
 * private engine, so these heuristics are Gatehouse's own, documented in docs/security.md), each an
 * integer 0–100 from the project's earlier sign-ups:
 * - `bot` = 20 × sign-ups from the same client address in the last hour (5 or more → 100);
 * - `free_trial_abuse` = 40 × sign-ups with the same email base in the last 30 days
 *   + 5 × sign-ups from the same client address in the last 24 hours, at most 100.
 * A first sign-up scores 0 and 0. Client addresses are counted for client requests only (an app
 * backend signs many users up from one address) and are IPv6 /64 prefixes.
 */
export async function signUpRiskScores(db: Kysely<Database>, projectId: string, facts: SignUpFacts, now: number): Promise<SignUpRiskScores> {
  const [addressHour, addressDay, base] = await Promise.all([
    facts.address_hash ? countRecentSignUps(db, projectId, 'address_hash', facts.address_hash, now - HOUR, 5) : 0,
    facts.address_hash ? countRecentSignUps(db, projectId, 'address_hash', facts.address_hash, now - DAY, 20) : 0,
    facts.email_base_hash ? countRecentSignUps(db, projectId, 'email_base_hash', facts.email_base_hash, now - 30 * DAY, 3) : 0,
  ]);
  return {
    bot: Math.min(100, 20 * addressHour),
    free_trial_abuse: Math.min(100, 40 * base + 5 * addressDay),
  };
}
