import type { Kysely } from 'kysely';
import { KnownError } from '../errors/index.ts';
import type { Database } from '../storage/tables.ts';
import { findEndpoint, type WebhookEndpointRow } from './queries.ts';

/**
 * The endpoint `endpointId` of `projectId`.
 *
 * @throws KnownError WEBHOOK_ENDPOINT_NOT_FOUND `{endpoint_id}` (also for another project's id).
 */
export async function getEndpoint(db: Kysely<Database>, projectId: string, endpointId: string): Promise<WebhookEndpointRow> {
  const row = await findEndpoint(db, projectId, endpointId);
  if (!row) throw new KnownError('WEBHOOK_ENDPOINT_NOT_FOUND', { endpoint_id: endpointId });
  return row;
}
