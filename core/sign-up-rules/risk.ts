import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import { sha256Hex } from '../lib/hash.ts';
import { isPrivateAddress } from '../lib/outbound.ts';
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

/** The hashed facts of a sign-up, salted by project so no two projects' hashes compare; no address hash for a loopback or private address. */
export function signUpFacts(projectId: string, clientAddress: string | null, email: string | null): SignUpFacts {
  const base = emailBase(email);
  return {
    address_hash:
      clientAddress && !isPrivateAddress(clientAddress.replace(/\/64$/, '')) ? sha256Hex(`${projectId}:address:${clientAddress}`) : null,
    email_base_hash: base ? sha256Hex(`${projectId}:email-base:${base}`) : null,
  };
}

/** The scores of a sign-up nothing is known against (upstream's answer when its engine has nothing to say). */
export const NO_RISK: SignUpRiskScores = Object.freeze({ bot: 0, free_trial_abuse: 0 });

/** Earlier sign-ups from one public address in an hour that are still ordinary (a household, an office). */
const ORDINARY_SIGN_UPS_PER_ADDRESS_HOUR = 4;

/**
 * The sign-up risk scores (`risk_scores.sign_up` on the user; upstream computes them with a
 * private engine that answers 0 and 0 when it has nothing to say, so these heuristics are
 * Gatehouse's own, documented in docs/security.md "Risk scores"), each an integer 0–100 from the
 * project's earlier sign-ups, 0 unless one of two signals is present:
 * - `bot` = 20 × the earlier sign-ups from the same public client address in the last hour beyond
 *   the first four (so 9 or more earlier ones → 100);
 * - `free_trial_abuse` = 40 × the earlier sign-ups with the same email base in the last 30 days
 *   (the same mailbox again, through a `+tag` or Gmail dots), at most 100.
 * Client addresses are counted for client requests only (an app backend signs many users up from
 * one address), and never when loopback or private (a proxy, a development machine, a test suite:
 * `isPrivateAddress`), so ordinary sign-ups score 0 and 0. A project turns the heuristic off with
 * `auth.signUpRiskHeuristic: false`.
 */
export async function signUpRiskScores(
  db: Kysely<Database>,
  projectId: string,
  facts: SignUpFacts,
  now: number,
): Promise<SignUpRiskScores> {
  const [addressHour, base] = await Promise.all([
    facts.address_hash
      ? countRecentSignUps(db, projectId, 'address_hash', facts.address_hash, now - HOUR, ORDINARY_SIGN_UPS_PER_ADDRESS_HOUR + 5)
      : 0,
    facts.email_base_hash ? countRecentSignUps(db, projectId, 'email_base_hash', facts.email_base_hash, now - 30 * DAY, 3) : 0,
  ]);
  return {
    bot: Math.min(100, 20 * Math.max(0, addressHour - ORDINARY_SIGN_UPS_PER_ADDRESS_HOUR)),
    free_trial_abuse: Math.min(100, 40 * base),
  };
}
