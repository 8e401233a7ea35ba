import type { Kysely, Selectable } from 'kysely';
import type { Database, PaymentPurchasesTable, PaymentPurchaseCodesTable, PaymentStripeAccountsTable } from '../storage/tables.ts';

/** One customer's balance of one item, within a project and branch. */
export interface ItemKey {
  projectId: string;
  branchId: string;
  customerType: string;
  customerId: string;
  itemId: string;
}

const keyWhere = (k: ItemKey) => ({
  project_id: k.projectId,
  branch_id: k.branchId,
  customer_type: k.customerType,
  customer_id: k.customerId,
  item_id: k.itemId,
});

/**
 * Bumps the counter row of `key` (inserting it at version 1). On PostgreSQL the upsert takes the
 * row's lock until the transaction ends, so writers of one balance run one after another; SQLite
 * runs one write transaction at a time anyway.
 */
export async function lockItemBalance(db: Kysely<Database>, key: ItemKey, now: number): Promise<void> {
  await db
    .insertInto('payment_item_counters')
    .values({ ...keyWhere(key), version: 1, updated_at: now })
    .onConflict((oc) =>
      oc
        .columns(['project_id', 'branch_id', 'customer_type', 'customer_id', 'item_id'])
        .doUpdateSet((eb) => ({ version: eb('payment_item_counters.version', '+', 1), updated_at: now })),
    )
    .execute();
}

/**
 * Takes the lock of one customer's purchases until the transaction ends (the counter row of item
 * id `''`, which no configured item has), so the checks before a grant (a non-stackable product
 * owned once, one one-off purchase per product line) hold under concurrent grants.
 */
export async function lockCustomerPurchases(
  db: Kysely<Database>,
  c: { projectId: string; branchId: string; customerType: string; customerId: string },
  now: number,
): Promise<void> {
  await lockItemBalance(db, { ...c, itemId: '' }, now);
}

/** The manual quantity changes of one balance: delta, time and expiry (ms). */
export async function listItemChanges(
  db: Kysely<Database>,
  key: ItemKey,
): Promise<Array<{ delta: number; created_at: number; expires_at: number | null }>> {
  const rows = await db
    .selectFrom('payment_item_changes')
    .select(['delta', 'created_at', 'expires_at'])
    .where('project_id', '=', key.projectId)
    .where('branch_id', '=', key.branchId)
    .where('customer_type', '=', key.customerType)
    .where('customer_id', '=', key.customerId)
    .where('item_id', '=', key.itemId)
    .execute();
  return rows.map((r) => ({
    delta: Number(r.delta),
    created_at: Number(r.created_at),
    expires_at: r.expires_at === null ? null : Number(r.expires_at),
  }));
}

/** One item change by id (idempotent retries), or null. */
export async function findItemChange(
  db: Kysely<Database>,
  projectId: string,
  id: string,
): Promise<{ delta: number; description: string | null; expires_at: number | null } | null> {
  const row = await db
    .selectFrom('payment_item_changes')
    .select(['delta', 'description', 'expires_at'])
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row
    ? { delta: Number(row.delta), description: row.description, expires_at: row.expires_at === null ? null : Number(row.expires_at) }
    : null;
}

export async function insertItemChange(
  db: Kysely<Database>,
  key: ItemKey,
  change: {
    id: string;
    delta: number;
    description: string | null;
    expiresAt: number | null;
    kind: string;
    purchaseId: string | null;
    now: number;
  },
): Promise<void> {
  await db
    .insertInto('payment_item_changes')
    .values({
      id: change.id,
      ...keyWhere(key),
      delta: change.delta,
      description: change.description,
      expires_at: change.expiresAt,
      kind: change.kind,
      purchase_id: change.purchaseId,
      created_at: change.now,
    })
    .execute();
}

export type PurchaseRow = Selectable<PaymentPurchasesTable>;

/** Every purchase of one customer (any status), oldest first. */
export async function listCustomerPurchases(
  db: Kysely<Database>,
  projectId: string,
  branchId: string,
  customerType: string,
  customerId: string,
): Promise<PurchaseRow[]> {
  return db
    .selectFrom('payment_purchases')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('branch_id', '=', branchId)
    .where('customer_type', '=', customerType)
    .where('customer_id', '=', customerId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

export async function insertPurchase(db: Kysely<Database>, row: PaymentPurchasesTable): Promise<void> {
  await db.insertInto('payment_purchases').values(row).execute();
}

export async function findPurchase(db: Kysely<Database>, projectId: string, id: string): Promise<PurchaseRow | null> {
  return (
    (await db.selectFrom('payment_purchases').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst()) ??
    null
  );
}

export async function findPurchaseByStripeSubscription(
  db: Kysely<Database>,
  projectId: string,
  subscriptionId: string,
): Promise<PurchaseRow | null> {
  return (
    (await db
      .selectFrom('payment_purchases')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('stripe_subscription_id', '=', subscriptionId)
      .executeTakeFirst()) ?? null
  );
}

export async function findPurchaseByCheckoutSession(
  db: Kysely<Database>,
  projectId: string,
  sessionId: string,
): Promise<PurchaseRow | null> {
  return (
    (await db
      .selectFrom('payment_purchases')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('stripe_checkout_session_id', '=', sessionId)
      .executeTakeFirst()) ?? null
  );
}

export async function updatePurchase(
  db: Kysely<Database>,
  projectId: string,
  id: string,
  set: Partial<Omit<PaymentPurchasesTable, 'id' | 'project_id'>>,
): Promise<void> {
  await db.updateTable('payment_purchases').set(set).where('project_id', '=', projectId).where('id', '=', id).execute();
}

/** Marks a purchase refunded at `now` unless it already was; true when this call did (one winner). */
export async function claimRefund(db: Kysely<Database>, projectId: string, id: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('payment_purchases')
    .set({ refunded_at: now })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('refunded_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Gives back a refund claim made at `now` (the refund failed). */
export async function releaseRefund(db: Kysely<Database>, projectId: string, id: string, now: number): Promise<void> {
  await db
    .updateTable('payment_purchases')
    .set({ refunded_at: null })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('refunded_at', '=', now)
    .execute();
}

/** A page of a project's purchases, newest first (`cursor`: the last id of the previous page). */
export async function listProjectPurchases(
  db: Kysely<Database>,
  projectId: string,
  branchId: string,
  opts: { limit: number; before?: { createdAt: number; id: string }; customerType?: string },
): Promise<PurchaseRow[]> {
  let q = db.selectFrom('payment_purchases').selectAll().where('project_id', '=', projectId).where('branch_id', '=', branchId);
  if (opts.customerType) q = q.where('customer_type', '=', opts.customerType);
  if (opts.before) {
    const b = opts.before;
    q = q.where((eb) => eb.or([eb('created_at', '<', b.createdAt), eb.and([eb('created_at', '=', b.createdAt), eb('id', '<', b.id)])]));
  }
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(opts.limit).execute();
}

/** Manual item changes of a project, newest first, for the transactions list. */
export async function listProjectItemChanges(db: Kysely<Database>, projectId: string, branchId: string, limit: number) {
  return db
    .selectFrom('payment_item_changes')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('branch_id', '=', branchId)
    .where('kind', '=', 'manual')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Every purchase of a project with the fields metrics read (all branches). */
export async function listProjectPurchaseFacts(db: Kysely<Database>, projectId: string) {
  return db
    .selectFrom('payment_purchases')
    .select(['created_at', 'currency', 'unit_amount_minor', 'quantity', 'kind', 'status', 'test_mode', 'product', 'product_id', 'price_id'])
    .where('project_id', '=', projectId)
    .execute();
}

/** Purchase codes of a project: how many were made and how many were completed. */
export async function countPurchaseCodes(db: Kysely<Database>, projectId: string): Promise<{ total: number; used: number }> {
  const row = await db
    .selectFrom('payment_purchase_codes')
    .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.count<number>('used_at').as('used')])
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return { total: Number(row?.total ?? 0), used: Number(row?.used ?? 0) };
}

// ── Purchase codes ─────────────────────────────────────────────────────────────────────────

export type PurchaseCodeRow = Selectable<PaymentPurchaseCodesTable>;

export async function insertPurchaseCode(db: Kysely<Database>, row: PaymentPurchaseCodesTable): Promise<void> {
  await db.insertInto('payment_purchase_codes').values(row).execute();
}

export async function findPurchaseCode(db: Kysely<Database>, codeHash: string): Promise<PurchaseCodeRow | null> {
  return (await db.selectFrom('payment_purchase_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst()) ?? null;
}

/** Marks a code used unless it already was; true when this call used it (one statement, race-free). */
export async function usePurchaseCode(db: Kysely<Database>, codeHash: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('payment_purchase_codes')
    .set({ used_at: now })
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

// ── Stripe account and events ──────────────────────────────────────────────────────────────

export type StripeAccountRow = Selectable<PaymentStripeAccountsTable>;

export async function findStripeAccount(db: Kysely<Database>, projectId: string, branchId: string): Promise<StripeAccountRow | null> {
  return (
    (await db
      .selectFrom('payment_stripe_accounts')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('branch_id', '=', branchId)
      .executeTakeFirst()) ?? null
  );
}

export async function upsertStripeAccount(db: Kysely<Database>, row: PaymentStripeAccountsTable): Promise<void> {
  const { project_id, branch_id, created_at, ...rest } = row;
  await db
    .insertInto('payment_stripe_accounts')
    .values(row)
    .onConflict((oc) => oc.columns(['project_id', 'branch_id']).doUpdateSet(rest))
    .execute();
}

export async function deleteStripeAccount(db: Kysely<Database>, projectId: string, branchId: string): Promise<void> {
  await db.deleteFrom('payment_stripe_accounts').where('project_id', '=', projectId).where('branch_id', '=', branchId).execute();
}

/** Records a Stripe event id; false when it was recorded before (the event was already applied). */
export async function recordStripeEvent(
  db: Kysely<Database>,
  projectId: string,
  eventId: string,
  type: string,
  now: number,
): Promise<boolean> {
  const res = await db
    .insertInto('payment_stripe_events')
    .values({ project_id: projectId, event_id: eventId, type, received_at: now })
    .onConflict((oc) => oc.columns(['project_id', 'event_id']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
}
