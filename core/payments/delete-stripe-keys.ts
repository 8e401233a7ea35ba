import { defineOperation } from '../operations/define.ts';
import { SuccessOutput } from '../operations/output.ts';
import { deleteStripeAccount } from './queries.ts';

/** Forgets the Stripe keys of the current branch (admin access). */
export const deleteStripeKeys = defineOperation({
  id: 'payments.deleteStripeKeys',
  method: 'DELETE',
  path: '/internal/payments/stripe/keys',
  summary: "Disconnect the project's Stripe account.",
  access: ['admin'],
  input: {},
  ignoresBody: true,
  output: SuccessOutput,
  errors: [],
  async run(ctx) {
    await deleteStripeAccount(ctx.db, ctx.auth.project.id, ctx.auth.branchId);
    return { success: true };
  },
});
