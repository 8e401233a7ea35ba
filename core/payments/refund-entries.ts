import { KnownError } from '../errors/index.ts';
import { schemaError } from '../operations/validation.ts';
import { API_PREFIX } from '../operations/api-path.ts';
import { toMinorUnits } from './model.ts';
import type { PurchaseRow } from './queries.ts';
import { chargedMinor, purchaseTransaction } from './transactions.ts';

/** One `refund_entries` element: which transaction entry, how many units, how much money (USD, decimal). */
export interface RefundEntry {
  entry_index: number;
  quantity: number;
  amount_usd: string;
}

const schema = (message: string) => new KnownError('SCHEMA_ERROR', { message });

/** upstream `moneyAmountSchema`: digits, optionally a fraction of at most two digits (USD). */
const MONEY = /^\d+(\.\d{1,2})?$/;

/**
 * Checks `refund_entries` against the purchase's transaction as upstream does, in its order and
 * words (SCHEMA_ERROR with a bare message): integer, non-negative quantities; no index twice; each
 * index names a `product_grant` entry of the purchase's transaction; at most its quantity; amounts
 * in upstream's money format, summing to no more than what was charged (USD prices only).
 *
 * @returns the units to revoke and the money to refund (minor units).
 */
export function checkRefundEntries(row: PurchaseRow, entries: readonly RefundEntry[]): { quantity: number; amountMinor: number } {
  for (const e of entries) {
    if (!MONEY.test(e.amount_usd)) {
      throw schemaError('POST', `${API_PREFIX}/internal/payments/transactions/refund`, [
        'Money amount must be in the format of <number> or <number>.<number>',
      ]);
    }
  }
  const txEntries = purchaseTransaction(row).entries;
  const seen = new Set<number>();
  for (const e of entries) {
    if (!Number.isInteger(e.quantity)) throw schema('Refund quantity must be an integer.');
    if (e.quantity < 0) throw schema('Refund quantity cannot be negative.');
    if (seen.has(e.entry_index)) throw schema('Refund entries cannot contain duplicate entry indexes.');
    seen.add(e.entry_index);
    const entry = Number.isInteger(e.entry_index) && e.entry_index >= 0 ? txEntries[e.entry_index] : undefined;
    if (!entry) throw schema('Refund entry index is invalid.');
    if (entry.type !== 'product_grant') throw schema('Refund entries must reference product grant entries.');
    if (e.quantity > Number(entry.quantity)) throw schema('Refund quantity cannot exceed purchased quantity.');
  }
  if (row.currency !== 'USD') throw schema('Refund amounts can only be specified for USD-priced purchases.');
  const amountMinor = entries.reduce((sum, e) => sum + toMinorUnits(e.amount_usd, 'USD')!, 0);
  if (amountMinor > (chargedMinor(row) ?? 0)) throw schema('Refund amount cannot exceed the charged amount.');
  return { quantity: entries.reduce((sum, e) => sum + e.quantity, 0), amountMinor };
}
