import { loadConfigLayers, renderLayers } from '../config/index.ts';
import type { OperationContext } from '../operations/define.ts';
import type { RequestAuth } from '../auth/request-auth.ts';
import { findStripeAccount } from './queries.ts';

/**
 * The payments model read from the rendered config (`payments.*`, upstream
 * `https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/config/schema.ts` `branchPaymentsSchema` and `schema-fields.ts`
 * `productSchema`): items, products with their prices and included items, product lines.
 * Config keeps these as loosely typed data, so every field is read defensively here, with
 * upstream's defaults (`products.*.customerType` "user", `includedItems.*.repeat` "never",
 * `expires` "when-repeated", `items.*.displayName` the item id).
 */

export const CUSTOMER_TYPES = ['user', 'team', 'custom'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

/** A day interval of upstream's `dayIntervalSchema`: `[count, unit]`. */
export type Interval = [number, 'day' | 'week' | 'month' | 'year'];

export interface ItemConfig {
  displayName: string;
  customerType: CustomerType;
}

export interface IncludedItem {
  quantity: number;
  /** `never` or an interval after which the quantity is granted again. */
  repeat: Interval | 'never';
  expires: 'never' | 'when-purchase-expires' | 'when-repeated';
}

/** A price: amounts per currency as decimal strings (`"9.99"`), and an interval for subscriptions. */
export interface PriceConfig {
  amounts: Record<string, string>;
  interval?: Interval;
  freeTrial?: Interval;
  serverOnly: boolean;
}

export interface ProductConfig {
  displayName: string;
  customerType: CustomerType;
  productLineId?: string;
  /** Product ids this product is an add-on to; false when it is not an add-on. */
  isAddOnTo: false | Record<string, true>;
  freeTrial?: Interval;
  serverOnly: boolean;
  stackable: boolean;
  /** Prices by id, or `include-by-default` for a product every customer of its type owns. */
  prices: Record<string, PriceConfig> | 'include-by-default';
  includedItems: Record<string, IncludedItem>;
  clientMetadata?: unknown;
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
}

export interface ProductLineConfig {
  displayName?: string;
  customerType?: CustomerType;
}

export interface PaymentsModel {
  /**
   * Purchases complete without payment: `payments.testMode` when the project set it, else on
   * only while the project's environment has no Stripe account connected.
   */
  testMode: boolean;
  /**
   * `payments.publicTestMode`: anyone holding a purchase code may complete a test-mode purchase
   * from the hosted purchase page, also on a server in production mode (default false).
   */
  publicTestMode: boolean;
  blockNewPurchases: boolean;
  items: Record<string, ItemConfig>;
  products: Record<string, ProductConfig>;
  productLines: Record<string, ProductLineConfig>;
}

/** Currencies upstream supports, with their minor-unit decimals (stack-shared `currency-constants`). */
export const CURRENCIES: Record<string, number> = { USD: 2, EUR: 2, GBP: 2, JPY: 0, INR: 2, AUD: 2, CAD: 2 };

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const customerTypeOf = (v: unknown, fallback: CustomerType): CustomerType =>
  (CUSTOMER_TYPES as readonly unknown[]).includes(v) ? (v as CustomerType) : fallback;

export function parseInterval(v: unknown): Interval | undefined {
  if (!Array.isArray(v) || v.length !== 2) return undefined;
  const [n, unit] = v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0) return undefined;
  if (unit !== 'day' && unit !== 'week' && unit !== 'month' && unit !== 'year') return undefined;
  return [n, unit];
}

function parseIncludedItem(v: unknown): IncludedItem {
  const o = obj(v);
  const expires = o.expires === 'never' || o.expires === 'when-purchase-expires' ? o.expires : 'when-repeated';
  return {
    quantity: typeof o.quantity === 'number' && Number.isFinite(o.quantity) ? Math.trunc(o.quantity) : 0,
    repeat: parseInterval(o.repeat) ?? 'never',
    expires,
  };
}

function parsePrice(v: unknown): PriceConfig {
  const o = obj(v);
  const amounts: Record<string, string> = {};
  for (const code of Object.keys(CURRENCIES)) {
    const a = o[code];
    if (typeof a === 'string' && /^\d+(\.\d+)?$/.test(a)) amounts[code] = a;
    else if (typeof a === 'number' && Number.isFinite(a) && a >= 0) amounts[code] = String(a);
  }
  const interval = parseInterval(o.interval);
  const freeTrial = parseInterval(o.freeTrial);
  return { amounts, ...(interval ? { interval } : {}), ...(freeTrial ? { freeTrial } : {}), serverOnly: o.serverOnly === true };
}

/** Reads one product as configured (or as snapshotted into a purchase). */
export function parseProduct(id: string, v: unknown): ProductConfig {
  const o = obj(v);
  const rawPrices = o.prices;
  const prices =
    rawPrices === 'include-by-default'
      ? ('include-by-default' as const)
      : Object.fromEntries(Object.entries(obj(rawPrices)).map(([pid, p]) => [pid, parsePrice(p)]));
  const addOn = obj(o.isAddOnTo);
  const lineId = str(o.productLineId) ?? str(o.catalogId) ?? str(o.groupId);
  const freeTrial = parseInterval(o.freeTrial);
  return {
    displayName: str(o.displayName) ?? id,
    customerType: customerTypeOf(o.customerType, 'user'),
    ...(lineId ? { productLineId: lineId } : {}),
    isAddOnTo:
      o.isAddOnTo === false || o.isAddOnTo === undefined || Object.keys(addOn).length === 0
        ? false
        : Object.fromEntries(Object.keys(addOn).map((k) => [k, true as const])),
    ...(freeTrial ? { freeTrial } : {}),
    serverOnly: o.serverOnly === true,
    stackable: o.stackable === true,
    prices,
    includedItems: Object.fromEntries(Object.entries(obj(o.includedItems)).map(([iid, inc]) => [iid, parseIncludedItem(inc)])),
    ...(o.clientMetadata !== undefined ? { clientMetadata: o.clientMetadata } : {}),
    ...(o.clientReadOnlyMetadata !== undefined ? { clientReadOnlyMetadata: o.clientReadOnlyMetadata } : {}),
    ...(o.serverMetadata !== undefined ? { serverMetadata: o.serverMetadata } : {}),
  };
}

/**
 * The payments model of a rendered config (`config.payments`); `stripeConnected` says whether
 * the project's environment has a Stripe account, which turns the default test mode off.
 */
export function paymentsModelOf(payments: unknown, stripeConnected: boolean): PaymentsModel {
  const p = obj(payments);
  const items = Object.fromEntries(
    Object.entries(obj(p.items)).map(([id, v]) => {
      const o = obj(v);
      return [id, { displayName: str(o.displayName) ?? id, customerType: customerTypeOf(o.customerType, 'user') }];
    }),
  );
  const lines = { ...obj(p.catalogs), ...obj(p.productLines) };
  const productLines = Object.fromEntries(
    Object.entries(lines).map(([id, v]) => {
      const o = obj(v);
      const ct = (CUSTOMER_TYPES as readonly unknown[]).includes(o.customerType) ? (o.customerType as CustomerType) : undefined;
      return [id, { ...(str(o.displayName) ? { displayName: str(o.displayName) } : {}), ...(ct ? { customerType: ct } : {}) }];
    }),
  );
  return {
    testMode: typeof p.testMode === 'boolean' ? p.testMode : !stripeConnected,
    publicTestMode: p.publicTestMode === true,
    blockNewPurchases: p.blockNewPurchases === true,
    items,
    products: Object.fromEntries(Object.entries(obj(p.products)).map(([id, v]) => [id, parseProduct(id, v)])),
    productLines,
  };
}

/** The payments model of the caller's project and branch. */
export async function loadPaymentsModel(ctx: OperationContext<RequestAuth>): Promise<PaymentsModel> {
  return loadPaymentsModelFor(ctx, ctx.auth.project.id, ctx.auth.branchId);
}

/** The payments model of a given project and branch (routes without project auth: purchase codes, Stripe webhooks). */
export async function loadPaymentsModelFor(ctx: OperationContext, projectId: string, branchId: string): Promise<PaymentsModel> {
  const layers = await ctx.transaction((tx) => loadConfigLayers(tx.db, projectId, branchId, ctx.now));
  const stripe = await findStripeAccount(ctx.db, projectId, branchId);
  return paymentsModelOf(renderLayers(layers).payments, stripe !== null);
}

/**
 * A decimal amount (`"9.99"`) in the currency's minor unit (999), or null when it has more
 * decimals than the currency allows.
 */
export function toMinorUnits(amount: string, currency: string): number | null {
  const decimals = CURRENCIES[currency];
  if (decimals === undefined) return null;
  const [whole, frac = ''] = amount.split('.');
  if (frac.length > decimals) return null;
  return Number(whole) * 10 ** decimals + Number((frac + '0'.repeat(decimals)).slice(0, decimals) || '0');
}

/** `date + count × interval` in UTC (months and years by calendar, as upstream `addInterval`). */
export function addInterval(epochMs: number, interval: Interval, times = 1): number {
  const d = new Date(epochMs);
  const n = interval[0] * times;
  switch (interval[1]) {
    case 'day':
      return epochMs + n * 86_400_000;
    case 'week':
      return epochMs + n * 7 * 86_400_000;
    case 'month':
      d.setUTCMonth(d.getUTCMonth() + n);
      return d.getTime();
    case 'year':
      d.setUTCFullYear(d.getUTCFullYear() + n);
      return d.getTime();
  }
}

/** Whole intervals elapsed from `start` to `end` (0 when `end` is before the first boundary). */
export function intervalsElapsed(start: number, end: number, interval: Interval): number {
  if (end < start) return 0;
  let k = 0;
  while (addInterval(start, interval, k + 1) <= end) k++;
  return k;
}
