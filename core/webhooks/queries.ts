import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type {
  Database,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
  WebhookMessagesTable,
} from '../storage/tables.ts';
import { takeLease } from '../storage/leased-rows.ts';

export type { WebhookEndpointRow } from '../webhook-events/index.ts';
import type { WebhookEndpointRow } from '../webhook-events/index.ts';
export type WebhookMessageRow = Selectable<WebhookMessagesTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;

// ── Endpoints ────────────────────────────────────────────────────────────────────────────────

export async function insertEndpoint(db: Kysely<Database>, row: Insertable<WebhookEndpointsTable>): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

/** The endpoint `id` of `projectId`, or null (tenant-scoped: another project's id is null). */
export async function findEndpoint(db: Kysely<Database>, projectId: string, id: string): Promise<WebhookEndpointRow | null> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

/** The project's endpoints, oldest first. */
export async function listEndpoints(db: Kysely<Database>, projectId: string): Promise<WebhookEndpointRow[]> {
  return db.selectFrom('webhook_endpoints').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('id').execute();
}

/** The project's enabled endpoints (event filters are applied by the caller). */
export async function updateEndpoint(
  db: Kysely<Database>,
  projectId: string,
  id: string,
  changes: Updateable<WebhookEndpointsTable>,
): Promise<void> {
  await db.updateTable('webhook_endpoints').set(changes).where('project_id', '=', projectId).where('id', '=', id).execute();
}

export async function deleteEndpoint(db: Kysely<Database>, projectId: string, id: string): Promise<void> {
  await db.deleteFrom('webhook_endpoints').where('project_id', '=', projectId).where('id', '=', id).execute();
}

// ── Messages and deliveries ──────────────────────────────────────────────────────────────────

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  delivery: WebhookDeliveryRow;
  message: WebhookMessageRow;
  endpoint: WebhookEndpointRow;
}

/**
 * Takes the lease of one due delivery until `lockedUntil` (core/storage/leased-rows.ts: only one
 * process can win it, so two processes never send one attempt twice). Returns it with its message
 * and endpoint when this caller holds the lease, else null.
 */
export async function claimDelivery(db: Kysely<Database>, id: string, now: number, lockedUntil: number): Promise<ClaimedDelivery | null> {
  if (!(await takeLease(db, 'webhook_deliveries', id, now, lockedUntil))) return null;
  const delivery = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  if (!delivery) return null;
  const message = await db.selectFrom('webhook_messages').selectAll().where('id', '=', delivery.message_id).executeTakeFirst();
  const endpoint = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', delivery.endpoint_id).executeTakeFirst();
  if (!message || !endpoint) return null;
  return { delivery, message, endpoint };
}

export async function insertAttempt(db: Kysely<Database>, row: Insertable<WebhookAttemptsTable>): Promise<void> {
  await db.insertInto('webhook_attempts').values(row).execute();
}

/** The delivery of message `messageId` to endpoint `endpointId` of `projectId`, or null. */
export async function findDelivery(
  db: Kysely<Database>,
  projectId: string,
  endpointId: string,
  messageId: string,
): Promise<WebhookDeliveryRow | null> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('endpoint_id', '=', endpointId)
    .where('message_id', '=', messageId)
    .executeTakeFirst();
  return row ?? null;
}

/** The status code of the earliest attempt of delivery `deliveryId` (null when it had no answer), or undefined while none is recorded. */
export async function firstAttemptStatus(db: Kysely<Database>, deliveryId: string): Promise<number | null | undefined> {
  const row = await db
    .selectFrom('webhook_attempts')
    .select('status_code')
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempted_at', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row ? row.status_code : undefined;
}

/** Makes a delivery due now again (manual retry), whatever its state. */
export async function requeueDelivery(db: Kysely<Database>, id: string, now: number): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: now, locked_until: null, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** One row of an endpoint's delivery log. */
export interface DeliveryLogRow {
  delivery: WebhookDeliveryRow;
  eventType: string;
  attempts: WebhookAttemptRow[];
}

/** An endpoint's newest deliveries with their attempts (oldest attempt first). */
export async function listDeliveryLog(
  db: Kysely<Database>,
  projectId: string,
  endpointId: string,
  limit: number,
): Promise<DeliveryLogRow[]> {
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_messages', 'webhook_messages.id', 'webhook_deliveries.message_id')
    .selectAll('webhook_deliveries')
    .select('webhook_messages.event_type')
    .where('webhook_deliveries.project_id', '=', projectId)
    .where('webhook_deliveries.endpoint_id', '=', endpointId)
    .orderBy('webhook_deliveries.created_at', 'desc')
    .orderBy('webhook_deliveries.id', 'desc')
    .limit(limit)
    .execute();
  if (deliveries.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where(
      'delivery_id',
      'in',
      deliveries.map((d) => d.id),
    )
    .orderBy('attempted_at')
    .orderBy('id')
    .execute();
  return deliveries.map(({ event_type, ...delivery }) => ({
    delivery,
    eventType: event_type,
    attempts: attempts.filter((a) => a.delivery_id === delivery.id),
  }));
}
