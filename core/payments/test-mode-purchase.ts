import * as v from 'valibot';
import { KnownError } from '../errors/index.ts';
import { defineOperation, type OperationContext } from '../operations/define.ts';
import { TestModePurchaseOutput } from './outputs.ts';
import { grantProduct } from './grant.ts';
import { loadPaymentsModelFor } from './model.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { openPurchaseCode } from './purchase-codes.ts';
import { usePurchaseCode } from './queries.ts';
import { queueStripeChange } from './stripe-outbox.ts';

export const BodySchema = v.strictObject({
  full_code: v.pipe(v.string(), v.maxLength(512)),
  price_id: v.pipe(v.string(), v.maxLength(256)),
  quantity: v.optional(
    v.pipe(
      v.number(),
      v.integer('must be an integer'),
      v.minValue(1, 'must be at least 1'),
      v.maxValue(1_000_000, 'must be at most 1000000'),
    ),
  ),
});

/**
 * Completes the purchase of a code without Stripe: uses the code (once, race-free) and grants the
 * product with its included items, recorded as a test-mode purchase at the configured price. A
 * Stripe subscription it replaces in its product line is canceled in Stripe (through the Stripe outbox).
 *
 * @returns the purchase id.
 */
export async function completeTestModePurchase(
  ctx: OperationContext,
  body: v.InferOutput<typeof BodySchema>,
  expectedProjectId: string | null,
) {
  const code = await openPurchaseCode(ctx.db, body.full_code, ctx.now);
  if (expectedProjectId !== null && code.projectId !== expectedProjectId)
    throw paymentsPlainError.badRequest('Tenancy id does not match value from code data');
  const model = await loadPaymentsModelFor(ctx, code.projectId, code.branchId);
  if (model.blockNewPurchases) throw new KnownError('NEW_PURCHASES_BLOCKED');
  if (expectedProjectId === null) {
    if (!model.testMode) throw paymentsPlainError.badRequest('Payments of this project are not in test mode; pay through Stripe.');
    // Free purchases for whoever holds a code: only where the owner said so, or on a
    // development server.
    if (!model.publicTestMode && ctx.runtime.environment === 'production') {
      throw paymentsPlainError.forbidden(
        'Test-mode purchases from the purchase page are off for this project (payments.publicTestMode); an admin can complete one from the dashboard.',
      );
    }
  }
  const granted = await ctx.transaction(async (tx) => {
    if (!(await usePurchaseCode(tx.db, code.codeHash, ctx.now))) throw new KnownError('VERIFICATION_CODE_ALREADY_USED');
    const result = await grantProduct(tx.db, model, code, {
      productId: code.productId,
      product: code.product,
      priceId: body.price_id,
      quantity: body.quantity ?? 1,
      source: { creationSource: 'TEST_MODE', testMode: true },
      now: ctx.now,
    });
    await queueStripeChange(tx, result.replaced, { action: 'cancel' });
    return result;
  });
  return granted.purchaseId;
}

export const ERRORS = [
  'VERIFICATION_CODE_NOT_FOUND',
  'VERIFICATION_CODE_EXPIRED',
  'VERIFICATION_CODE_ALREADY_USED',
  'NEW_PURCHASES_BLOCKED',
  'PRODUCT_ALREADY_GRANTED',
  'USER_NOT_FOUND',
  'TEAM_NOT_FOUND',
] as const;

/**
 * `POST /payments/purchases/test-mode-purchase` (public; Gatehouse: the hosted purchase page's
 * "complete test purchase" button): as the admin route, for whoever holds the code, only while
 * the project is in test mode (`payments.testMode`; by default until a Stripe account is
 * connected) and either the project turned `payments.publicTestMode` on or the server runs in
 * development mode → `{ success: true, purchase_id }`. docs/payments.md "Test mode".
 *
 * @throws as test-mode-purchase-session; a plain 400 when test mode is off; a plain 403 when
 *   public test-mode purchases are off on a production server.
 */
export const testModePurchase = defineOperation({
  id: 'payments.testModePurchase',
  method: 'POST',
  path: '/payments/purchases/test-mode-purchase',
  summary: 'Complete a purchase in test mode from the hosted purchase page.',
  access: 'public',
  input: { body: BodySchema },
  output: TestModePurchaseOutput,
  errors: ERRORS,
  async run(ctx, { body }) {
    const purchaseId = await completeTestModePurchase(ctx, body, null);
    return { success: true, purchase_id: purchaseId };
  },
});
