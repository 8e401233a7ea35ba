import type { AccessType } from '../auth/access-type.ts';
import { KnownError } from '../errors/index.ts';
import type { CustomerType, PaymentsModel, ProductConfig } from './model.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { productToWire } from './products.ts';

/** One owned purchase as the listing needs it (from `ownedProducts`). */
export interface OwnedPurchase {
  row: { id: string; product_id: string | null; cancel_at_period_end: boolean };
  kind: 'one_time' | 'subscription';
  status: string;
  product: ProductConfig;
  quantity: number;
  currentPeriodEnd: number | null;
}

const INLINE_KEY = '__null__';

/** A subscription counts for `type: "subscription"` when active or trialing (upstream `isActiveSubscription`). */
function isActiveSubscription(p: OwnedPurchase): boolean {
  return p.kind === 'subscription' && (p.status === 'active' || p.status === 'trialing');
}

/**
 * The products of `customerType`'s product lines a customer may switch between (upstream's
 * `switch_options`): configured, not server-only for client callers, in a product line, with at
 * least one recurring price, not an add-on; only the recurring prices are listed.
 */
function switchOptionsByLine(model: PaymentsModel, customerType: CustomerType, server: boolean) {
  const byLine = new Map<string, Array<{ product_id: string; product: ReturnType<typeof productToWire> }>>();
  for (const [productId, product] of Object.entries(model.products)) {
    if (product.customerType !== customerType || (!server && product.serverOnly)) continue;
    if (!product.productLineId || product.prices === 'include-by-default' || product.isAddOnTo !== false) continue;
    const recurring = Object.fromEntries(Object.entries(product.prices).filter(([, p]) => p.interval !== undefined));
    if (Object.keys(recurring).length === 0) continue;
    const list = byLine.get(product.productLineId) ?? [];
    list.push({ product_id: productId, product: productToWire({ ...product, prices: recurring }, server) });
    byLine.set(product.productLineId, list);
  }
  return byLine;
}

/**
 * A customer's product listing as upstream answers it (upstream
 * `payments/products/[customer_type]/[customer_id]/route.ts` GET): one entry per product id
 * (inline products share the id `null`) with the quantities of its purchases summed, entries with
 * quantity 0 and (for client callers) server-only products left out, sorted by product id (code
 * unit order), `type: "subscription"` with its `subscription` only while an active or trialing
 * subscription of that product exists, else `one_time` and null; `switch_options` for products in
 * a product line. Paged by `cursor` (a product id from `next_cursor`) and `limit` (1–100, default 10).
 *
 * @throws a plain 400 "Invalid cursor" for a cursor that is no listed product id; SCHEMA_ERROR for
 * a limit outside 1–100.
 */
export function ownedProductPage(
  model: PaymentsModel,
  customerType: CustomerType,
  accessType: AccessType,
  owned: { purchases: OwnedPurchase[]; defaults: Array<[string, ProductConfig]> },
  query: { cursor?: string; limit?: string },
) {
  const server = accessType !== 'client';
  const byId = new Map<string, { product: ProductConfig; quantity: number }>();
  for (const [id, product] of owned.defaults) byId.set(id, { product, quantity: 1 });
  const activeSubs = new Map<string, OwnedPurchase>();
  for (const p of owned.purchases) {
    const key = p.row.product_id ?? INLINE_KEY;
    const entry = byId.get(key);
    byId.set(key, { product: p.product, quantity: (entry?.quantity ?? 0) + p.quantity });
    if (isActiveSubscription(p)) activeSubs.set(key, p);
  }
  const options = switchOptionsByLine(model, customerType, server);
  const entries = [...byId.entries()]
    .filter(([, e]) => e.quantity > 0 && (server || !e.product.serverOnly))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, e]) => {
      const sub = activeSubs.get(key);
      const line = e.product.productLineId;
      return {
        cursor: key,
        item: {
          id: key === INLINE_KEY ? null : key,
          quantity: e.quantity,
          product: productToWire(e.product, server),
          type: sub ? ('subscription' as const) : ('one_time' as const),
          subscription: sub
            ? {
                subscription_id: sub.row.id,
                current_period_end: sub.currentPeriodEnd === null ? null : new Date(sub.currentPeriodEnd).toISOString(),
                cancel_at_period_end: sub.row.cancel_at_period_end,
                is_cancelable: true,
              }
            : null,
          ...(line ? { switch_options: (options.get(line) ?? []).filter((o) => o.product_id !== key) } : {}),
        },
      };
    });
  let start = 0;
  if (query.cursor !== undefined && query.cursor !== '') {
    start = entries.findIndex((e) => e.cursor === query.cursor);
    if (start === -1) throw paymentsPlainError.badRequest('Invalid cursor');
  }
  const limit = query.limit === undefined ? 10 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new KnownError('SCHEMA_ERROR', { message: 'limit must be between 1 and 100' });
  }
  const next = entries[start + limit];
  return {
    items: entries.slice(start, start + limit).map((e) => e.item),
    is_paginated: true as const,
    pagination: { next_cursor: next ? next.cursor : null },
  };
}
