import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { ValidateCodeOutput } from './outputs.ts';
import { findProject } from '../projects/index.ts';
import { KnownError } from '../errors/index.ts';
import { ownedProducts } from './grant.ts';
import { loadPaymentsModelFor } from './model.ts';
import { productToWire } from './products.ts';
import { openPurchaseCode } from './purchase-codes.ts';
import { assertReturnUrlTrusted } from './purchase-urls.ts';
import { connectedStripe } from './stripe-account.ts';

/**
 * Tells what a purchase code is for (public: the hosted purchase page): the product in
 * upstream's inline shape (its prices as configured when the code was made).
 * `stripe_account_id` is the connected account's id ("" when none); `charges_enabled` tells
 * whether a real payment can be taken (a Stripe account is connected).
 *
 * @see upstream `payments/purchases/validate-code/route.ts`
 */
export const validatePurchaseCode = defineOperation({
  id: 'payments.validateCode',
  method: 'POST',
  path: '/payments/purchases/validate-code',
  summary: 'Validate a purchase code and describe its purchase.',
  access: 'public',
  input: {
    body: v.strictObject({
      full_code: v.pipe(v.string(), v.maxLength(512)),
      return_url: v.optional(v.pipe(v.string(), v.url('must be a URL'))),
    }),
  },
  output: ValidateCodeOutput,
  errors: ['VERIFICATION_CODE_NOT_FOUND', 'VERIFICATION_CODE_EXPIRED', 'VERIFICATION_CODE_ALREADY_USED', 'REDIRECT_URL_NOT_WHITELISTED'],
  async run(ctx, { body }) {
    const code = await openPurchaseCode(ctx.db, body.full_code, ctx.now);
    const project = await findProject(ctx.db, code.projectId);
    if (!project) throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
    if (body.return_url !== undefined) assertReturnUrlTrusted(ctx.runtime, project, body.return_url);
    const model = await loadPaymentsModelFor(ctx, code.projectId, code.branchId);
    const customer = { projectId: code.projectId, branchId: code.branchId, customerType: code.customerType, customerId: code.customerId };
    const { purchases } = await ownedProducts(ctx.db, model, customer, ctx.now);
    const product = code.product;
    const alreadyBought = code.productId !== null && !product.stackable && purchases.some((p) => p.row.product_id === code.productId);
    const line = product.productLineId;
    const subscribable = product.prices !== 'include-by-default' && Object.values(product.prices).some((p) => p.interval);
    const conflicting =
      line !== undefined && subscribable
        ? purchases
            .filter((p) => p.product.productLineId === line && p.row.product_id !== null)
            .map((p) => ({ product_id: p.row.product_id!, display_name: p.product.displayName }))
        : [];
    const stripe = await connectedStripe(ctx.runtime, ctx.db, code.projectId, code.branchId);
    return {
      product: productToWire(product, false),
      stripe_account_id: stripe?.accountId ?? '',
      project_id: code.projectId,
      project_logo_url: project.logoUrl ?? null,
      already_bought_non_stackable: alreadyBought,
      conflicting_products: conflicting,
      test_mode: model.testMode,
      charges_enabled: stripe !== null,
    };
  },
});
