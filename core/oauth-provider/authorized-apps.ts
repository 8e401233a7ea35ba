import * as v from 'valibot';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import { component, MillisOutput } from '../operations/output.ts';
import { clientMetadata } from './client-record.ts';
import { GRANT_MODEL, grantFromRow, type StoredGrant } from './grants.ts';
import { findClientRow, listAccountPayloadRows } from './queries.ts';

/** An application (a client of the project's identity provider) a user authorized. */
export const AuthorizedAppOutput = component(
  'AuthorizedApp',
  v.strictObject({
    client_id: v.string(),
    /** The client's name, or its id when it is gone. */
    client_name: v.string(),
    /** The client's https logo URL, or null. */
    logo_uri: v.nullable(v.string()),
    /** Every scope the user granted it, once each. */
    scopes: v.array(v.string()),
    /** When the user first authorized it (epoch ms). */
    authorized_at: MillisOutput,
  }),
);

/** One client's grants of a user, with what the listing shows. */
export interface AuthorizedApp {
  clientId: string;
  clientName: string;
  logoUri: string | null;
  scopes: string[];
  authorizedAt: number;
  grants: StoredGrant[];
}

/** The clients user `userId` authorized (their unexpired grants, grouped per client), most recent first. */
export async function authorizedAppsOf(db: Kysely<Database>, projectId: string, userId: string, now: number): Promise<AuthorizedApp[]> {
  const rows = await listAccountPayloadRows(db, projectId, GRANT_MODEL, userId, now);
  const byClient = new Map<string, StoredGrant[]>();
  for (const row of rows) {
    const grant = grantFromRow(row);
    if (grant) byClient.set(grant.clientId, [...(byClient.get(grant.clientId) ?? []), grant]);
  }
  const apps: AuthorizedApp[] = [];
  for (const [clientId, grants] of byClient) {
    const client = await findClientRow(db, projectId, clientId);
    const metadata = client ? clientMetadata(client) : {};
    const logo = typeof metadata.logo_uri === 'string' && metadata.logo_uri.startsWith('https://') ? metadata.logo_uri : null;
    apps.push({
      clientId,
      clientName: typeof metadata.client_name === 'string' ? metadata.client_name : clientId,
      logoUri: logo,
      scopes: [...new Set(grants.flatMap((g) => g.scopes))],
      authorizedAt: Math.min(...grants.map((g) => g.issuedAt)),
      grants,
    });
  }
  return apps.sort((a, b) => b.authorizedAt - a.authorizedAt || a.clientId.localeCompare(b.clientId));
}
