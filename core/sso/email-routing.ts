import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import { normalizeEmail } from '../lib/email.ts';
import type { SsoConnection } from './connection.ts';
import { listConnectionsNamingDomain, listTeamConnections } from './queries.ts';

/** The domain of an address, lowercased (the part after the last `@`), or null. */
export function emailDomain(email: string): string | null {
  const normal = normalizeEmail(email);
  const at = normal.lastIndexOf('@');
  return at > 0 && at < normal.length - 1 ? normal.slice(at + 1) : null;
}

/**
 * The seam for verified team domains (issue 32 item 3): the teams of `projectId` that verified
 * `domain`. Verified domains live in their own domain; it provides this lookup, and everything
 * below (routing by address, trusting an IdP's word on an address) follows from it. This
 * capability names no table of theirs: core/wiring.ts installs the lookup of core/team-domains.
 */
export type VerifiedDomainTeams = (db: Kysely<Database>, projectId: string, domain: string) => Promise<string[]>;

let verifiedDomainTeams: VerifiedDomainTeams = async () => [];

/** Installs the verified-domain lookup (called once by the domain that owns verified domains). */
export function setVerifiedDomainTeams(lookup: VerifiedDomainTeams): void {
  verifiedDomainTeams = lookup;
}

/**
 * The connection an address signs in through (home-realm discovery): first a connection of a
 * team that verified the address's domain, then one whose `domains` list names it (set by the
 * app with server or admin access); the oldest when several match; null when none does.
 */
export async function connectionForEmail(db: Kysely<Database>, projectId: string, email: string): Promise<SsoConnection | null> {
  const domain = emailDomain(email);
  if (!domain) return null;
  for (const teamId of await verifiedDomainTeams(db, projectId, domain)) {
    const [oldest] = await listTeamConnections(db, projectId, teamId);
    if (oldest) return oldest;
  }
  const listed = await listConnectionsNamingDomain(db, projectId, domain);
  return listed.find((c) => c.domains.includes(domain)) ?? null;
}

/**
 * Whether a connection's IdP may vouch for `email`: only when the connection's team verified the
 * address's domain. A vouched address is marked verified and may be linked to an existing
 * account with that verified address (the project's merge strategy); otherwise a sign-in through
 * the connection whose address already belongs to a user becomes a separate account, so no IdP
 * can take over an account through an address its team does not own.
 */
export async function idpVouchesFor(db: Kysely<Database>, connection: SsoConnection, email: string | null): Promise<boolean> {
  const domain = email ? emailDomain(email) : null;
  if (!domain) return false;
  return (await verifiedDomainTeams(db, connection.projectId, domain)).includes(connection.teamId);
}
