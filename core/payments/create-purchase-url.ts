import * as v from 'valibot';
import { KnownError } from '../errors/index.ts';
import { defineOperation } from '../operations/define.ts';
import { UrlOutput } from './outputs.ts';
import { ensureCallerCanAccessCustomer, ensureCustomerExists } from './customers.ts';
import { ownedProducts } from './grant.ts';
import { loadPaymentsModel } from './model.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { InlineProductSchema, productSnapshot, resolveProduct } from './products.ts';
import { createPurchaseCode } from './purchase-codes.ts';
import { assertReturnUrlTrusted, purchasePageUrl } from './purchase-urls.ts';
import { CustomerTypeSchema } from './schemas.ts';

/**
 * Makes a purchase code (client for itself, server, admin) for `product_id` (from config) or `product_inline` (server only) and the URL of the hosted
 * purchase page. What the SDK's `createCheckoutUrl` calls. The code keeps a snapshot of
 * the product with its prices from config; nothing the page later sends can change them.
 * Plain 400s for a product already owned and not stackable, and for an inline product from a
 * client.
 *
 * @see upstream `payments/purchases/create-purchase-url/route.ts`
 */
export const createPurchaseUrl = defineOperation({
  id: 'payments.createPurchaseUrl',
  method: 'POST',
  path: '/payments/purchases/create-purchase-url',
  summary: 'Create the URL of a hosted purchase page for a product.',
  access: ['client', 'server', 'admin'],
  input: {
    body: v.strictObject({
      customer_type: CustomerTypeSchema,
      customer_id: v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(256)),
      product_id: v.optional(v.pipe(v.string(), v.maxLength(256))),
      product_inline: v.optional(InlineProductSchema),
      return_url: v.optional(v.pipe(v.string(), v.url('must be a URL'))),
    }),
  },
  output: UrlOutput,
  errors: [
    'PRODUCT_DOES_NOT_EXIST',
    'PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH',
    'NEW_PURCHASES_BLOCKED',
    'REDIRECT_URL_NOT_WHITELISTED',
    'USER_NOT_FOUND',
    'TEAM_NOT_FOUND',
    'USER_AUTHENTICATION_REQUIRED',
    'TEAM_PERMISSION_REQUIRED',
  ],
  async run(ctx, { body }) {
    const model = await loadPaymentsModel(ctx);
    if (model.blockNewPurchases) throw new KnownError('NEW_PURCHASES_BLOCKED');
    const { productId, product } = resolveProduct(model, ctx.auth.accessType, body.product_id, body.product_inline);
    if (body.customer_type !== product.customerType) {
      throw new KnownError('PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH', {
        product_id: productId,
        customer_id: body.customer_id,
        product_customer_type: product.customerType,
        actual_customer_type: body.customer_type,
      });
    }
    await ensureCallerCanAccessCustomer(
      ctx.db,
      ctx.auth,
      body.customer_type,
      body.customer_id,
      'Clients can only purchase products for their own user or teams.',
    );
    await ensureCustomerExists(ctx.db, ctx.auth.project.id, body.customer_type, body.customer_id);
    if (body.return_url !== undefined) assertReturnUrlTrusted(ctx.runtime, ctx.auth.project, body.return_url);
    const customer = {
      projectId: ctx.auth.project.id,
      branchId: ctx.auth.branchId,
      customerType: body.customer_type,
      customerId: body.customer_id,
    };
    if (productId !== null && !product.stackable) {
      const { purchases } = await ownedProducts(ctx.db, model, customer, ctx.now);
      if (purchases.some((p) => p.row.product_id === productId))
        throw paymentsPlainError.badRequest('Customer already has purchased this product; this product is not stackable');
    }
    const fullCode = await createPurchaseCode(ctx.db, {
      ...customer,
      productId,
      product: productSnapshot(product),
      returnUrl: body.return_url ?? null,
      now: ctx.now,
    });
    return { url: purchasePageUrl(ctx.runtime, ctx.auth.project.id, fullCode, body.return_url ?? null) };
  },
});
