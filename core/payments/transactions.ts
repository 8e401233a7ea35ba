import { CURRENCIES, type ProductConfig } from './model.ts';
import { parseProduct } from './model.ts';
import { productToWire } from './products.ts';
import type { PurchaseRow } from './queries.ts';

/**
 * Upstream's transaction wire shape (stack-shared `interface/crud/transactions.ts`), built from
 * Gatehouse's purchases and manual item changes: a purchase is a `purchase` transaction (the
 * product grant first, as upstream, then a money transfer unless test mode, then the included
 * items); a refund is a `refund` (id `<purchase id>:refund`)
 * transaction revoking the grant; a manual change is a `manual-item-quantity-change`.
 */

/** Minor units back to upstream's decimal string (`999` USD → `"9.99"`). */
export function formatMinor(minor: number, currency: string): string {
  const decimals = CURRENCIES[currency] ?? 2;
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  if (decimals === 0) return `${sign}${abs}`;
  const s = String(abs).padStart(decimals + 1, '0');
  return `${sign}${s.slice(0, -decimals)}.${s.slice(-decimals)}`;
}

function productOf(row: PurchaseRow): ProductConfig {
  return parseProduct(row.product_id ?? 'inline', JSON.parse(row.product));
}

/** The amount a purchase charged (unit price × quantity, minor units), or null (free or unknown). */
export function chargedMinor(row: PurchaseRow): number | null {
  return row.unit_amount_minor === null ? null : Number(row.unit_amount_minor) * row.quantity;
}

export function purchaseTransaction(row: PurchaseRow) {
  const product = productOf(row);
  const customer = { customer_type: row.customer_type, customer_id: row.customer_id };
  const charged = chargedMinor(row);
  const entries: Array<Record<string, unknown>> = [];
  entries.push({
    type: 'product_grant',
    adjusted_transaction_id: null,
    adjusted_entry_index: null,
    ...customer,
    product_id: row.product_id,
    product: productToWire(product, true),
    price_id: row.price_id,
    quantity: row.quantity,
    ...(row.kind === 'subscription' ? { subscription_id: row.id } : { one_time_purchase_id: row.id }),
  });
  if (!row.test_mode && charged !== null && row.currency) {
    entries.push({
      type: 'money_transfer',
      adjusted_transaction_id: null,
      adjusted_entry_index: null,
      ...customer,
      charged_amount: { [row.currency]: formatMinor(charged, row.currency) },
      net_amount: { USD: row.currency === 'USD' ? formatMinor(charged, 'USD') : '0' },
    });
  }
  for (const [itemId, inc] of Object.entries(product.includedItems)) {
    if (inc.quantity === 0) continue;
    entries.push({
      type: 'item_quantity_change',
      adjusted_transaction_id: null,
      adjusted_entry_index: null,
      ...customer,
      item_id: itemId,
      quantity: inc.quantity * row.quantity,
    });
  }
  const grantIndex = entries.findIndex((e) => e.type === 'product_grant');
  return {
    id: row.id,
    created_at_millis: Number(row.created_at),
    effective_at_millis: Number(row.created_at),
    type: 'purchase',
    ...customer,
    entries,
    adjusted_by: row.refunded_at !== null ? [{ transaction_id: `${row.id}:refund`, entry_index: grantIndex }] : [],
    test_mode: row.test_mode,
  };
}

export function refundTransaction(row: PurchaseRow) {
  const grant = purchaseTransaction(row);
  const grantIndex = grant.entries.findIndex((e) => e.type === 'product_grant');
  const at = Number(row.refunded_at);
  return {
    id: `${row.id}:refund`,
    created_at_millis: at,
    effective_at_millis: at,
    type: 'refund',
    customer_type: row.customer_type,
    customer_id: row.customer_id,
    entries: [
      {
        type: 'product_revocation',
        adjusted_transaction_id: row.id,
        adjusted_entry_index: grantIndex,
        quantity: row.refunded_quantity ?? row.quantity,
      },
    ],
    adjusted_by: [],
    test_mode: row.test_mode,
  };
}

export function manualChangeTransaction(row: {
  id: string;
  customer_type: string;
  customer_id: string;
  item_id: string;
  delta: number;
  created_at: number;
}) {
  return {
    id: row.id,
    created_at_millis: Number(row.created_at),
    effective_at_millis: Number(row.created_at),
    type: 'manual-item-quantity-change',
    customer_type: row.customer_type,
    customer_id: row.customer_id,
    entries: [
      {
        type: 'item_quantity_change',
        adjusted_transaction_id: null,
        adjusted_entry_index: null,
        customer_type: row.customer_type,
        customer_id: row.customer_id,
        item_id: row.item_id,
        quantity: Number(row.delta),
      },
    ],
    adjusted_by: [],
    test_mode: false,
  };
}
