import * as v from 'valibot';
import { KnownError } from '../errors/index.ts';
import type { AccessType } from '../auth/access-type.ts';
import {
  CURRENCIES,
  parseProduct,
  toMinorUnits,
  type Interval,
  type PaymentsModel,
  type PriceConfig,
  type ProductConfig,
} from './model.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { CustomerTypeSchema } from './schemas.ts';

const IntervalSchema = v.pipe(
  v.tuple([v.pipe(v.number(), v.integer(), v.minValue(1)), v.picklist(['day', 'week', 'month', 'year'])]),
  v.transform((t) => t as Interval),
);
const MoneySchema = v.pipe(v.string(), v.regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be a decimal amount like "9.99"'));
const USER_ID = /^[a-zA-Z0-9_-]+$/;

/**
 * `product_inline` (server and admin callers only; upstream `schema-fields.ts`
 * `inlineProductSchema`): a product defined in the request instead of config. Its prices still
 * come from the trusted server caller, never from an end user.
 */
export const InlineProductSchema = v.strictObject({
  display_name: v.pipe(v.string(), v.maxLength(1000)),
  customer_type: CustomerTypeSchema,
  free_trial: v.optional(IntervalSchema),
  server_only: v.optional(v.boolean()),
  stackable: v.optional(v.boolean()),
  prices: v.record(
    v.pipe(v.string(), v.regex(USER_ID)),
    v.strictObject({
      ...Object.fromEntries(Object.keys(CURRENCIES).map((c) => [c, v.optional(MoneySchema)])),
      interval: v.optional(IntervalSchema),
      free_trial: v.optional(IntervalSchema),
    }),
  ),
  included_items: v.record(
    v.pipe(v.string(), v.regex(USER_ID)),
    v.strictObject({
      quantity: v.optional(v.pipe(v.number(), v.integer())),
      repeat: v.optional(v.union([IntervalSchema, v.literal('never')])),
      expires: v.optional(v.picklist(['never', 'when-purchase-expires', 'when-repeated'])),
    }),
  ),
  client_metadata: v.optional(v.unknown()),
  client_read_only_metadata: v.optional(v.unknown()),
  server_metadata: v.optional(v.unknown()),
});
export type InlineProduct = v.InferOutput<typeof InlineProductSchema>;

/** An inline product as a product config (prices are server-only, as upstream). */
function fromInline(p: InlineProduct): ProductConfig {
  return parseProduct('inline', {
    displayName: p.display_name,
    customerType: p.customer_type,
    freeTrial: p.free_trial,
    serverOnly: p.server_only ?? true,
    stackable: p.stackable ?? false,
    prices: Object.fromEntries(
      Object.entries(p.prices).map(([id, price]) => {
        const { interval, free_trial, ...amounts } = price as Record<string, unknown>;
        return [id, { ...amounts, interval, freeTrial: free_trial, serverOnly: true }];
      }),
    ),
    includedItems: Object.fromEntries(
      Object.entries(p.included_items).map(([id, inc]) => [
        id,
        { quantity: inc.quantity ?? 0, repeat: inc.repeat ?? 'never', expires: inc.expires ?? 'never' },
      ]),
    ),
    clientMetadata: p.client_metadata,
    clientReadOnlyMetadata: p.client_read_only_metadata,
    serverMetadata: p.server_metadata,
  });
}

/**
 * The product a purchase is for: `product_id` from config, or `product_inline` (not from
 * clients). Upstream `ensureProductIdOrInlineProduct`.
 *
 * @throws PRODUCT_DOES_NOT_EXIST (context `item_exists` when an item has that id, `server_only`
 * for a server-only product asked by a client); plain 400s for both or neither given, or an
 * inline product from a client.
 */
export function resolveProduct(
  model: PaymentsModel,
  accessType: AccessType,
  productId: string | undefined,
  inline: InlineProduct | undefined,
): { productId: string | null; product: ProductConfig } {
  if (productId !== undefined && inline !== undefined)
    throw paymentsPlainError.badRequest('Cannot specify both product_id and product_inline!');
  if (inline !== undefined && accessType === 'client')
    throw paymentsPlainError.badRequest(
      'Cannot specify product_inline when calling from client! Please call with a server API key, or use the product_id parameter.',
    );
  if (productId === undefined && inline === undefined)
    throw paymentsPlainError.badRequest('Must specify either product_id or product_inline!');
  if (productId !== undefined) {
    const product = Object.hasOwn(model.products, productId) ? model.products[productId]! : undefined;
    if (!product)
      throw new KnownError('PRODUCT_DOES_NOT_EXIST', {
        product_id: productId,
        context: Object.hasOwn(model.items, productId) ? 'item_exists' : null,
      });
    if (product.serverOnly && accessType === 'client')
      throw new KnownError('PRODUCT_DOES_NOT_EXIST', { product_id: productId, context: 'server_only' });
    return { productId, product };
  }
  return { productId: null, product: fromInline(inline!) };
}

/** A product config back to the stored/inline JSON a purchase keeps (config key names). */
export function productSnapshot(product: ProductConfig): Record<string, unknown> {
  return {
    displayName: product.displayName,
    customerType: product.customerType,
    ...(product.productLineId ? { productLineId: product.productLineId } : {}),
    isAddOnTo: product.isAddOnTo,
    ...(product.freeTrial ? { freeTrial: product.freeTrial } : {}),
    serverOnly: product.serverOnly,
    stackable: product.stackable,
    prices:
      product.prices === 'include-by-default'
        ? 'include-by-default'
        : Object.fromEntries(
            Object.entries(product.prices).map(([id, p]) => [
              id,
              {
                ...p.amounts,
                ...(p.interval ? { interval: p.interval } : {}),
                ...(p.freeTrial ? { freeTrial: p.freeTrial } : {}),
                serverOnly: p.serverOnly,
              },
            ]),
          ),
    includedItems: product.includedItems,
    ...(product.clientMetadata !== undefined ? { clientMetadata: product.clientMetadata } : {}),
    ...(product.clientReadOnlyMetadata !== undefined ? { clientReadOnlyMetadata: product.clientReadOnlyMetadata } : {}),
    ...(product.serverMetadata !== undefined ? { serverMetadata: product.serverMetadata } : {}),
  };
}

/** A price on the wire (upstream inline shape): amounts, `interval`, `free_trial`. */
function priceToWire(p: PriceConfig) {
  return { ...p.amounts, ...(p.interval ? { interval: p.interval } : {}), ...(p.freeTrial ? { free_trial: p.freeTrial } : {}) };
}

/**
 * A product in upstream's inline wire shape (`productToInlineProduct`): what validate-code and
 * the product lists answer. `server_metadata` only for server callers.
 */
export function productToWire(product: ProductConfig, includeServerMetadata: boolean) {
  return {
    display_name: product.displayName,
    customer_type: product.customerType,
    stackable: product.stackable,
    server_only: product.serverOnly,
    included_items: Object.fromEntries(
      Object.entries(product.includedItems).map(([id, inc]) => [id, { quantity: inc.quantity, repeat: inc.repeat, expires: inc.expires }]),
    ),
    client_metadata: product.clientMetadata ?? null,
    client_read_only_metadata: product.clientReadOnlyMetadata ?? null,
    // Always present, as upstream answers it; its value only for server and admin callers.
    server_metadata: includeServerMetadata ? (product.serverMetadata ?? null) : null,
    prices:
      product.prices === 'include-by-default'
        ? {}
        : Object.fromEntries(Object.entries(product.prices).map(([id, p]) => [id, priceToWire(p)])),
  };
}

/**
 * The price a purchase uses: `priceId`, or the product's first price.
 *
 * @throws a plain 400 when `priceId` is not a price of the product.
 */
export function selectPrice(product: ProductConfig, priceId: string | undefined): { priceId: string; price: PriceConfig } | null {
  if (product.prices === 'include-by-default') return null;
  if (priceId === undefined) {
    const first = Object.entries(product.prices)[0];
    return first ? { priceId: first[0], price: first[1] } : null;
  }
  const price = Object.hasOwn(product.prices, priceId) ? product.prices[priceId] : undefined;
  if (!price) throw paymentsPlainError.badRequest('Price not found on product associated with this purchase code');
  return { priceId, price };
}

/** The currency a price is charged in (USD when it has one) and its amount per unit in minor units. */
export function chargeOf(price: PriceConfig): { currency: string; unitAmountMinor: number } | null {
  const currency = price.amounts.USD !== undefined ? 'USD' : Object.keys(price.amounts)[0];
  if (!currency) return null;
  const unitAmountMinor = toMinorUnits(price.amounts[currency]!, currency);
  return unitAmountMinor === null ? null : { currency, unitAmountMinor };
}
