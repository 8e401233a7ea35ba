import { defineOperation } from '../operations/define.ts';
import { SuccessOutput } from '../operations/output.ts';
import { BodySchema, ERRORS, completeTestModePurchase } from './test-mode-purchase.ts';

/**
 * `POST /internal/payments/test-mode-purchase-session` (admin): completes a purchase code of the
 * admin's project without Stripe → `{ success: true }`. Body `{ full_code, price_id, quantity? }`;
 * amounts come from the product the code holds, never from the body.
 *
 * @throws VERIFICATION_CODE_*, PRODUCT_ALREADY_GRANTED, NEW_PURCHASES_BLOCKED, plain 400s (code of
 * another project, unknown price, quantity of a non-stackable product).
 * @see upstream `internal/payments/test-mode-purchase-session/route.tsx`
 */
export const testModePurchaseSession = defineOperation({
  id: 'payments.testModePurchaseSession',
  method: 'POST',
  path: '/internal/payments/test-mode-purchase-session',
  summary: 'Complete a purchase without Stripe (test mode, admin).',
  access: ['admin'],
  input: { body: BodySchema },
  output: SuccessOutput,
  errors: ERRORS,
  async run(ctx, { body }) {
    await completeTestModePurchase(ctx, body, ctx.auth.project.id);
    return { success: true };
  },
});
