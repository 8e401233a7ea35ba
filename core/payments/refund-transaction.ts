import * as v from 'valibot';
import { KnownError } from '../errors/index.ts';
import { defineOperation } from '../operations/define.ts';
import { RefundOutput } from './outputs.ts';
import { toMinorUnits } from './model.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { claimRefund, findPurchase, releaseRefund, updatePurchase } from './queries.ts';
import { requireConnectedStripe } from './stripe-account.ts';
import { chargedMinor } from './transactions.ts';

/**
 * Refunds a purchase (admin access; the dashboard's refund button and the SDK's
 * `refundTransaction`). Paid through Stripe: a Stripe refund of the purchase's payment intent (`amount_usd` in dollars,
 * at most what was charged; default all of it) and, for a subscription, its cancellation. The
 * purchase then grants nothing (its product and included items are revoked).
 * An amount above the charge is a plain 400.
 *
 * @see upstream `internal/payments/transactions/refund/route.tsx`
 */
export const refundTransaction = defineOperation({
  id: 'payments.refundTransaction',
  method: 'POST',
  path: '/internal/payments/transactions/refund',
  summary: 'Refund a purchase.',
  access: ['admin'],
  input: {
    body: v.strictObject({
      type: v.picklist(['subscription', 'one-time-purchase']),
      id: v.pipe(v.string(), v.maxLength(256)),
      invoice_id: v.optional(v.pipe(v.string(), v.maxLength(256))),
      amount_usd: v.optional(v.pipe(v.string(), v.regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be a decimal amount like "9.99"'))),
      end_action: v.optional(v.picklist(['cancel', 'none', 'end_now', 'end_at_period_end'])),
    }),
  },
  output: RefundOutput,
  errors: [
    'ONE_TIME_PURCHASE_NOT_FOUND',
    'SUBSCRIPTION_INVOICE_NOT_FOUND',
    'ONE_TIME_PURCHASE_ALREADY_REFUNDED',
    'SUBSCRIPTION_ALREADY_REFUNDED',
    'TEST_MODE_PURCHASE_NON_REFUNDABLE',
    'STRIPE_ACCOUNT_INFO_NOT_FOUND',
  ],
  async run(ctx, { body }) {
    const oneTime = body.type === 'one-time-purchase';
    const row = await findPurchase(ctx.db, ctx.auth.project.id, body.id);
    if (!row || row.branch_id !== ctx.auth.branchId || (row.kind === 'one_time') !== oneTime) {
      throw oneTime
        ? new KnownError('ONE_TIME_PURCHASE_NOT_FOUND', { one_time_purchase_id: body.id })
        : new KnownError('SUBSCRIPTION_INVOICE_NOT_FOUND', { subscription_invoice_id: body.invoice_id ?? body.id });
    }
    if (row.refunded_at !== null) throw alreadyRefunded(oneTime, row.id);
    if (row.test_mode) throw new KnownError('TEST_MODE_PURCHASE_NON_REFUNDABLE');
    const charged = chargedMinor(row) ?? 0;
    const amount = body.amount_usd === undefined ? charged : toMinorUnits(body.amount_usd, 'USD')!;
    if (amount > charged || (body.amount_usd !== undefined && row.currency !== 'USD'))
      throw paymentsPlainError.badRequest('The refund amount is more than what was charged.');
    if (row.stripe_payment_intent_id !== null || row.stripe_subscription_id !== null) {
      const { stripe } = await requireConnectedStripe(ctx.runtime, ctx.db, ctx.auth.project.id, ctx.auth.branchId);
      // Claimed before Stripe is called (one conditional update): two concurrent refunds of one
      // purchase never both reach Stripe. A failed call gives the claim back.
      if (!(await claimRefund(ctx.db, ctx.auth.project.id, row.id, ctx.now))) throw alreadyRefunded(oneTime, row.id);
      try {
        if (row.stripe_payment_intent_id !== null && amount > 0) {
          await stripe.refunds.create({
            payment_intent: row.stripe_payment_intent_id,
            amount,
            metadata: { gatehouse_purchase_id: row.id },
          });
        }
        if (row.stripe_subscription_id !== null && row.status !== 'canceled') await stripe.subscriptions.cancel(row.stripe_subscription_id);
      } catch (error) {
        await releaseRefund(ctx.db, ctx.auth.project.id, row.id, ctx.now);
        throw error;
      }
    } else if (!(await claimRefund(ctx.db, ctx.auth.project.id, row.id, ctx.now))) {
      throw alreadyRefunded(oneTime, row.id);
    }
    await updatePurchase(ctx.db, ctx.auth.project.id, row.id, {
      status: 'refunded',
      refunded_at: ctx.now,
      updated_at: ctx.now,
      ...(row.kind === 'subscription' ? { current_period_end: ctx.now } : {}),
    });
    return { success: true, refund_transaction_id: `${row.id}-refund` };
  },
});

function alreadyRefunded(oneTime: boolean, id: string): KnownError {
  return oneTime
    ? new KnownError('ONE_TIME_PURCHASE_ALREADY_REFUNDED', { one_time_purchase_id: id })
    : new KnownError('SUBSCRIPTION_ALREADY_REFUNDED', { subscription_id: id });
}
