import * as v from 'valibot';
import { domainToASCII } from 'node:url';
import { component, MillisOutput } from '../operations/output.ts';
import type { TeamDomainRow } from './queries.ts';

/** The DNS name whose TXT record proves a claim: `_gatehouse-challenge.<domain>`. */
export function challengeRecordName(domain: string): string {
  return `_gatehouse-challenge.${domain}`;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A domain as a team claims it, normalized: lowercase, IDNA to ASCII (punycode), no trailing dot;
 * at least two labels, each 1–63 letters, digits or hyphens, 253 characters at most, not an IP
 * address (RFC 1035 §2.3.1, RFC 5890). Null when `text` is not such a domain.
 */
export function normalizeDomain(text: string): string | null {
  if (text.length > 253) return null;
  const ascii = domainToASCII(text.trim().replace(/\.$/, '').toLowerCase());
  if (ascii === '' || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return null;
  return ascii;
}

/** A domain in a body or path, normalized by {@link normalizeDomain}. */
export const DomainSchema = v.pipe(
  v.string(),
  v.maxLength(253, 'must be at most 253 characters'),
  v.check((s) => normalizeDomain(s) !== null, 'must be a domain name such as example.com'),
  v.transform((s) => normalizeDomain(s)!),
);

/** `{team_id}` path parameters. */
export const TeamParamsSchema = v.strictObject({ team_id: v.pipe(v.string(), v.maxLength(100)) });

/**
 * `{team_id, domain}` path parameters: the domain is normalized like {@link DomainSchema}; a
 * segment that is no domain name is kept (lowercase) and simply names no claim
 * (TEAM_DOMAIN_NOT_FOUND).
 */
export const TeamDomainParamsSchema = v.strictObject({
  team_id: v.pipe(v.string(), v.maxLength(100)),
  domain: v.pipe(
    v.string(),
    v.maxLength(253, 'must be at most 253 characters'),
    v.transform((s) => normalizeDomain(s) ?? s.toLowerCase()),
  ),
});

/** A claimed domain on the wire. */
export const TeamDomainOutput = component(
  'TeamDomain',
  v.strictObject({
    team_id: v.string(),
    domain: v.string(),
    verified: v.boolean(),
    verified_at_millis: v.nullable(MillisOutput),
    sso_enforced: v.boolean(),
    challenge: v.strictObject({ type: v.literal('TXT'), name: v.string(), value: v.string() }),
    created_at_millis: MillisOutput,
  }),
);

/** The wire shape of a claimed domain. */
export function toTeamDomain(row: TeamDomainRow): v.InferOutput<typeof TeamDomainOutput> {
  return {
    team_id: row.team_id,
    domain: row.domain,
    verified: row.verified_at !== null,
    verified_at_millis: row.verified_at,
    sso_enforced: row.sso_enforced,
    challenge: { type: 'TXT', name: challengeRecordName(row.domain), value: row.challenge_value },
    created_at_millis: row.created_at,
  };
}
