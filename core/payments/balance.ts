import { addInterval, intervalsElapsed, type PaymentsModel, type ProductConfig } from './model.ts';

/**
 * Item balances, computed from ledger entries as upstream `lib/payments.tsx`
 * `getItemQuantityForCustomer` does: every grant and every debit is an entry with a grant time
 * and an expiry; debits use up grants (the earliest-expiring first, in effect), so an expiring
 * grant that was already spent does not push the balance below zero when it expires.
 */

/** One ledger entry: `amount` (negative for a debit) counted from `grantAt` until `expiresAt` (ms; Infinity: never). */
export interface LedgerEntry {
  amount: number;
  grantAt: number;
  expiresAt: number;
}

/** The balance of `entries` at `now`. */
export function balanceAt(entries: readonly LedgerEntry[], now: number): number {
  const granted = new Map<number, number>();
  const expired = new Map<number, number>();
  const used = new Map<number, number>();
  const times = new Set<number>();
  const add = (m: Map<number, number>, t: number, n: number) => m.set(t, (m.get(t) ?? 0) + n);
  for (const e of entries) {
    if (e.grantAt > now) continue;
    times.add(e.grantAt);
    if (e.amount < 0 && e.expiresAt > now) add(used, e.grantAt, -e.amount);
    if (e.amount > 0) {
      add(granted, e.grantAt, e.amount);
      if (e.expiresAt <= now) {
        add(expired, e.expiresAt, e.amount);
        times.add(e.expiresAt);
      }
    }
  }
  let grantedSum = 0;
  let expiredSum = 0;
  let usedOrExpired = 0;
  for (const t of [...times].sort((a, b) => a - b)) {
    grantedSum += granted.get(t) ?? 0;
    expiredSum += expired.get(t) ?? 0;
    usedOrExpired = Math.max(usedOrExpired + (used.get(t) ?? 0), expiredSum);
  }
  return grantedSum - usedOrExpired;
}

/** What a purchase contributes to balances (a row of `payment_purchases`, parsed). */
export interface PurchaseForBalance {
  kind: 'one_time' | 'subscription';
  status: string;
  product: ProductConfig;
  quantity: number;
  createdAt: number;
  currentPeriodStart: number | null;
  currentPeriodEnd: number | null;
}

/**
 * Ledger entries of `itemId` granted by one purchase (upstream's rules): a one-off purchase grants
 * for ever; a subscription grants per period, `when-purchase-expires` items end with the period,
 * `repeat` items are granted again every interval (`when-repeated`: each grant lasts one interval).
 * Refunded purchases grant nothing.
 */
export function purchaseEntries(p: PurchaseForBalance, itemId: string, now: number): LedgerEntry[] {
  if (p.status === 'refunded') return [];
  const inc = p.product.includedItems[itemId];
  if (!inc) return [];
  const base = inc.quantity * p.quantity;
  if (base <= 0) return [];
  if (p.kind === 'one_time') return [{ amount: base, grantAt: p.createdAt, expiresAt: Infinity }];
  const start = p.currentPeriodStart ?? p.createdAt;
  const end = p.currentPeriodEnd ?? Infinity;
  const clamped = Math.min(now, end);
  if (clamped < start) return [];
  if (inc.repeat === 'never') {
    return [{ amount: base, grantAt: start, expiresAt: inc.expires === 'when-purchase-expires' ? end : Infinity }];
  }
  const repeat = inc.repeat;
  if (inc.expires === 'when-repeated') {
    const out: LedgerEntry[] = [];
    const anchor = p.createdAt;
    const n = intervalsElapsed(anchor, clamped, repeat);
    for (let i = 0; i <= n; i++) {
      const from = addInterval(anchor, repeat, i);
      out.push({ amount: base, grantAt: from, expiresAt: Math.min(addInterval(anchor, repeat, i + 1), end) });
    }
    return out;
  }
  const occurrences = intervalsElapsed(start, clamped, repeat) + 1;
  return [{ amount: occurrences * base, grantAt: start, expiresAt: inc.expires === 'when-purchase-expires' ? end : Infinity }];
}

/**
 * Products every customer of a type owns without buying (`prices: "include-by-default"`), as
 * upstream's `getSubscriptions`: per product line, unless the customer holds an active purchase in
 * that line; ungrouped defaults always.
 */
export function defaultProducts(
  model: PaymentsModel,
  customerType: string,
  activeLineIds: ReadonlySet<string>,
): Array<[string, ProductConfig]> {
  return Object.entries(model.products).filter(
    ([, p]) =>
      p.prices === 'include-by-default' &&
      p.customerType === customerType &&
      (p.productLineId === undefined || !activeLineIds.has(p.productLineId)),
  );
}

/**
 * An owned purchase at `now`: a one-off purchase not refunded, a subscription that is active,
 * trialing or past due, or a canceled subscription whose paid period has not ended yet (upstream
 * keeps a canceled grant until its `endedAt`, the period's end; listed as `one_time`).
 */
export function isActivePurchase(p: { kind: string; status: string; currentPeriodEnd: number | null }, now: number): boolean {
  if (p.status === 'refunded') return false;
  if (p.kind === 'one_time' || p.status === 'active' || p.status === 'trialing' || p.status === 'past_due') return true;
  return p.status === 'canceled' && p.currentPeriodEnd !== null && p.currentPeriodEnd > now;
}
