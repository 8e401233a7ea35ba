import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, WebhookDeliveriesTable, WebhookEndpointsTable, WebhookMessagesTable } from '../storage/tables.ts';

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;

export async function listEnabledEndpoints(db: Kysely<Database>, projectId: string): Promise<WebhookEndpointRow[]> {
  return db.selectFrom('webhook_endpoints').selectAll().where('project_id', '=', projectId).where('enabled', '=', true).execute();
}

export async function insertMessage(db: Kysely<Database>, row: Insertable<WebhookMessagesTable>): Promise<void> {
  await db.insertInto('webhook_messages').values(row).execute();
}

export async function insertDeliveries(db: Kysely<Database>, rows: Insertable<WebhookDeliveriesTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhook_deliveries').values(rows).execute();
}
