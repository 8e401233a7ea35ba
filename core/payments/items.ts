import type { Kysely } from 'kysely';
import { KnownError } from '../errors/index.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { sha256Hex } from '../lib/hash.ts';
import { uuid } from '../lib/random.ts';
import type { Database } from '../storage/tables.ts';
import type { OperationContext } from '../operations/define.ts';
import { balanceAt, defaultProducts, isActivePurchase, purchaseEntries, type LedgerEntry } from './balance.ts';
import { parseProduct, type CustomerType, type ItemConfig, type PaymentsModel } from './model.ts';
import {
  findItemChange,
  insertItemChange,
  listCustomerPurchases,
  listItemChanges,
  lockItemBalance,
  type ItemKey,
  type PurchaseRow,
} from './queries.ts';

/** A purchase row as the balance rules read it. */
export function purchaseForBalance(row: PurchaseRow) {
  return {
    kind: row.kind as 'one_time' | 'subscription',
    status: row.status,
    product: parseProduct(row.product_id ?? 'inline', JSON.parse(row.product)),
    // Units a refund revoked are no longer owned.
    quantity: row.quantity - (row.refunded_quantity ?? 0),
    createdAt: Number(row.created_at),
    currentPeriodStart: row.current_period_start === null ? null : Number(row.current_period_start),
    currentPeriodEnd: row.current_period_end === null ? null : Number(row.current_period_end),
  };
}

/**
 * The configured item `itemId` for a customer of `customerType`.
 *
 * @throws ITEM_NOT_FOUND when not configured; ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH when the item is
 * for another customer type (upstream `items/[customer_type]/[customer_id]/[item_id]/route.ts`).
 */
export function requireItem(model: PaymentsModel, itemId: string, customerType: CustomerType, customerId: string): ItemConfig {
  const item = Object.hasOwn(model.items, itemId) ? model.items[itemId]! : undefined;
  if (!item) throw new KnownError('ITEM_NOT_FOUND', { item_id: itemId });
  if (item.customerType !== customerType) {
    throw new KnownError('ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH', {
      item_id: itemId,
      customer_id: customerId,
      item_customer_type: item.customerType,
      actual_customer_type: customerType,
    });
  }
  return item;
}

/**
 * The customer's quantity of an item at `now`: manual changes (not expired) plus what its
 * purchases and default products include, with debits using up grants (core/payments/balance.ts).
 * May be negative after changes made with `allow_negative`.
 */
export async function itemQuantity(db: Kysely<Database>, model: PaymentsModel, key: ItemKey, now: number): Promise<number> {
  return (await itemBalance(db, model, key, now)).quantity;
}

/**
 * The balance as {@link itemQuantity}, computed at `at`: `now`, or the latest time of an entry
 * already committed when that is later. Every committed change and purchase therefore counts,
 * whatever clock (another process's, a request that started later) stamped it; a balance read
 * under the lock cannot miss a debit committed before it.
 */
export async function itemBalance(
  db: Kysely<Database>,
  model: PaymentsModel,
  key: ItemKey,
  now: number,
): Promise<{ quantity: number; at: number }> {
  const changes = await listItemChanges(db, key);
  const purchases = (await listCustomerPurchases(db, key.projectId, key.branchId, key.customerType, key.customerId)).map(
    purchaseForBalance,
  );
  let at = now;
  for (const c of changes) at = Math.max(at, c.created_at);
  for (const p of purchases) at = Math.max(at, p.createdAt);
  const entries: LedgerEntry[] = changes.map((c) => ({ amount: c.delta, grantAt: c.created_at, expiresAt: c.expires_at ?? Infinity }));
  const activeLines = new Set<string>();
  for (const p of purchases) {
    entries.push(...purchaseEntries(p, key.itemId, at));
    if (isActivePurchase(p, at) && p.product.productLineId !== undefined) activeLines.add(p.product.productLineId);
  }
  for (const [, product] of defaultProducts(model, key.customerType, activeLines)) {
    const inc = product.includedItems[key.itemId];
    if (inc && inc.quantity > 0) entries.push({ amount: inc.quantity, grantAt: 0, expiresAt: Infinity });
  }
  return { quantity: balanceAt(entries, at), at };
}

/**
 * Adds `delta` to a customer's item quantity, atomically: in one transaction, the balance's
 * counter row is bumped first (serializing every writer of this balance: on PostgreSQL the
 * upsert holds the row's lock until commit, on SQLite transactions begin IMMEDIATE), then the
 * clock is read, the balance computed counting every committed entry ({@link itemBalance}), and
 * the ledger row written, stamped no earlier than any entry it counted, only when the result may
 * stand. Concurrent decreases therefore never overdraw, and no change is lost, on one process or
 * many. (The request's own `now`, read before the lock, is not used: a debit committed meanwhile
 * by a request that started later carries a later time and would be missed.)
 *
 * @throws ITEM_QUANTITY_INSUFFICIENT_AMOUNT `{item_id, customer_id, quantity: delta}` when the
 * quantity would go below zero and `allowNegative` is false (upstream `update-quantity/route.ts`).
 */
export async function changeItemQuantity(
  ctx: OperationContext,
  model: PaymentsModel,
  key: ItemKey,
  change: { delta: number; allowNegative: boolean; description: string | null; expiresAt: number | null; idempotencyKey: string | null },
): Promise<void> {
  // A retried request with the same idempotency key applies once (upstream's newer
  // `idempotency_key`): the change's id is derived from the key and the balance it belongs to.
  const id =
    change.idempotencyKey === null
      ? uuid()
      : `idem-${sha256Hex(['item-quantity-change', key.projectId, key.branchId, key.customerType, key.customerId, key.itemId, change.idempotencyKey].join('\0'))}`;
  await ctx.transaction(async (tx) => {
    await lockItemBalance(tx.db, key, tx.now);
    if (change.idempotencyKey !== null) {
      const existing = await findItemChange(tx.db, key.projectId, id);
      if (existing) {
        if (existing.delta !== change.delta || existing.description !== change.description || existing.expires_at !== change.expiresAt) {
          throw paymentsPlainError.conflict('The item quantity idempotency key was already used for a different update');
        }
        return;
      }
    }
    // The clock is read with the lock held; a checked debit is stamped no earlier than the ledger.
    let at = tx.runtime.clock.now();
    if (!change.allowNegative && change.delta < 0) {
      const balance = await itemBalance(tx.db, model, key, at);
      at = balance.at;
      if (balance.quantity + change.delta < 0) {
        throw new KnownError('ITEM_QUANTITY_INSUFFICIENT_AMOUNT', {
          item_id: key.itemId,
          customer_id: key.customerId,
          quantity: change.delta,
        });
      }
    }
    await insertItemChange(tx.db, key, {
      id,
      delta: change.delta,
      description: change.description,
      expiresAt: change.expiresAt,
      kind: 'manual',
      purchaseId: null,
      now: at,
    });
  });
}
