import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { grantProduct } from './grant.ts';
import { loadPaymentsModel } from './model.ts';
import { InlineProductSchema, resolveProduct } from './products.ts';
import { CustomerTypeSchema } from './schemas.ts';
import { queueStripeChange } from './stripe-outbox.ts';

/**
 * Grants a product, by id or inline, without payment (server, admin access; the SDK's
 * `grantProduct`). Recorded with creation source `API_GRANT`. Answers `{success: true}`, with
 * `subscription_id` (the purchase's id, as listings show it) when the product is a subscription.
 * A Stripe subscription it replaces in its product line is canceled in Stripe, through the Stripe
 * outbox (stripe-outbox.ts: recorded with the grant, attempted after commit, retried until done).
 *
 * @see upstream `payments/products/[customer_type]/[customer_id]/route.ts` (POST)
 */
export const grantCustomerProduct = defineOperation({
  id: 'payments.grantProduct',
  method: 'POST',
  path: '/payments/products/:customer_type/:customer_id',
  summary: 'Grant a product to a customer without payment.',
  access: ['server', 'admin'],
  input: {
    params: v.strictObject({ customer_type: CustomerTypeSchema, customer_id: v.pipe(v.string(), v.nonEmpty(), v.maxLength(256)) }),
    body: v.strictObject({
      product_id: v.optional(v.pipe(v.string(), v.maxLength(256))),
      product_inline: v.optional(InlineProductSchema),
      quantity: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000_000))),
    }),
  },
  output: v.strictObject({ success: v.literal(true), subscription_id: v.optional(v.string()) }),
  errors: ['PRODUCT_DOES_NOT_EXIST', 'PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH', 'PRODUCT_ALREADY_GRANTED', 'USER_NOT_FOUND', 'TEAM_NOT_FOUND'],
  async run(ctx, { params, body }) {
    const model = await loadPaymentsModel(ctx);
    const { productId, product } = resolveProduct(model, ctx.auth.accessType, body.product_id, body.product_inline);
    if (product.customerType !== params.customer_type) {
      throw new KnownError('PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH', {
        product_id: productId,
        customer_id: params.customer_id,
        product_customer_type: product.customerType,
        actual_customer_type: params.customer_type,
      });
    }
    const customer = {
      projectId: ctx.auth.project.id,
      branchId: ctx.auth.branchId,
      customerType: params.customer_type,
      customerId: params.customer_id,
    };
    const granted = await ctx.transaction(async (tx) => {
      const result = await grantProduct(tx.db, model, customer, {
        productId,
        product,
        priceId: undefined,
        quantity: body.quantity ?? 1,
        source: { creationSource: 'API_GRANT', testMode: model.testMode },
        now: ctx.now,
      });
      await queueStripeChange(tx, result.replaced, { action: 'cancel' });
      return result;
    });
    return { success: true as const, ...(granted.subscription && granted.purchaseId ? { subscription_id: granted.purchaseId } : {}) };
  },
});
