import * as v from 'valibot';
import { KnownError } from '../errors/index.ts';
import { defineOperation } from '../operations/define.ts';
import { RefundOutput } from './outputs.ts';
import { toMinorUnits } from './model.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { claimRefund, findPurchase, releaseRefund, updatePurchase, type PurchaseRow } from './queries.ts';
import { checkRefundEntries } from './refund-entries.ts';
import { requireConnectedStripe } from './stripe-account.ts';
import { queueStripeChange, type StripeSubscriptionChange } from './stripe-outbox.ts';
import { chargedMinor } from './transactions.ts';

/** What happens to a refunded subscription: ends now, at its period's end, or goes on. */
type EndAction = 'now' | 'at-period-end' | 'none';

/** The SDK's `endAction` values, and the older spellings Gatehouse accepted, as one of three actions. */
const END_ACTIONS: Record<string, EndAction> = {
  now: 'now',
  end_now: 'now',
  cancel: 'now',
  'at-period-end': 'at-period-end',
  end_at_period_end: 'at-period-end',
  none: 'none',
};

/** The refund to carry out: units revoked, money returned, and the subscription's fate. */
interface RefundPlan {
  revoke: number;
  amountMinor: number;
  end: EndAction;
}

/**
 * Refunds a Stripe purchase (admin access; the dashboard's refund dialog and the SDK's
 * `refundTransaction`) in either of upstream's request forms:
 * - `refund_entries: [{ entry_index, quantity, amount_usd }]` (upstream's route): entries name the
 *   purchase transaction's `product_grant` entry; `quantity` units are revoked at once (0: money
 *   only) and the amounts are refunded through Stripe. For a subscription, Stripe's quantity drops
 *   by the revoked units and, with none left, it ends at the period's end
 *   (`cancel_at_period_end`). Answers `{ success: true }`.
 * - `amount_usd` (default: all that was charged) and `end_action` (`now`, the default:
 *   the subscription is canceled in Stripe and revoked; `at-period-end`: it runs to the period's end;
 *   `none`: money only), as the SDK 2.8.108 sends them. A one-off purchase is revoked. Answers
 *   `{ success: true, refund_transaction_id }`.
 * Once Stripe has refunded the money the refund is recorded, and the subscription change it implies
 * goes to Stripe through the Stripe outbox (stripe-outbox.ts: recorded with the refund, attempted
 * at once, retried until Stripe has it), so the two never part silently.
 * As upstream, only purchases paid through Stripe are refundable: a test-mode one-off purchase is
 * TEST_MODE_PURCHASE_NON_REFUNDABLE, another one without a payment ONE_TIME_PURCHASE_NOT_FOUND, a
 * subscription not billed through Stripe SUBSCRIPTION_INVOICE_NOT_FOUND. A retry of a refund whose
 * answer was lost must ask for the same amount: another is STRIPE_IDEMPOTENCY_CONFLICT (409, the
 * refund stays unrecorded and can be retried as it was first made).
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
      refund_entries: v.optional(
        v.pipe(
          v.array(
            v.strictObject({
              entry_index: v.number(),
              quantity: v.number(),
              amount_usd: v.pipe(v.string(), v.maxLength(32)),
            }),
          ),
          v.maxLength(100),
        ),
      ),
      invoice_id: v.optional(v.pipe(v.string(), v.maxLength(256))),
      amount_usd: v.optional(v.pipe(v.string(), v.regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be a decimal amount like "9.99"'))),
      end_action: v.optional(v.picklist(Object.keys(END_ACTIONS))),
    }),
  },
  output: RefundOutput,
  errors: [
    'STRIPE_UNAVAILABLE',
    'STRIPE_IDEMPOTENCY_CONFLICT',
    'ONE_TIME_PURCHASE_NOT_FOUND',
    'SUBSCRIPTION_INVOICE_NOT_FOUND',
    'ONE_TIME_PURCHASE_ALREADY_REFUNDED',
    'SUBSCRIPTION_ALREADY_REFUNDED',
    'TEST_MODE_PURCHASE_NON_REFUNDABLE',
    'STRIPE_ACCOUNT_INFO_NOT_FOUND',
    'SCHEMA_ERROR',
  ],
  async run(ctx, { body }) {
    const oneTime = body.type === 'one-time-purchase';
    const row = await findPurchase(ctx.db, ctx.auth.project.id, body.id);
    const invoiceNotFound = () => new KnownError('SUBSCRIPTION_INVOICE_NOT_FOUND', { subscription_invoice_id: body.invoice_id ?? body.id });
    if (!row || row.branch_id !== ctx.auth.branchId || (row.kind === 'one_time') !== oneTime) {
      throw oneTime ? new KnownError('ONE_TIME_PURCHASE_NOT_FOUND', { one_time_purchase_id: body.id }) : invoiceNotFound();
    }
    if (row.refunded_at !== null) throw alreadyRefunded(oneTime, row.id);
    if (oneTime && row.test_mode) throw new KnownError('TEST_MODE_PURCHASE_NON_REFUNDABLE');
    if (oneTime && row.stripe_payment_intent_id === null)
      throw new KnownError('ONE_TIME_PURCHASE_NOT_FOUND', { one_time_purchase_id: body.id });
    if (!oneTime && row.stripe_subscription_id === null) throw invoiceNotFound();

    const plan = planRefund(row, body);
    if (plan.amountMinor > 0 && row.stripe_payment_intent_id === null) throw invoiceNotFound();
    const { stripe } = await requireConnectedStripe(ctx.runtime, ctx.db, ctx.auth.project.id, ctx.auth.branchId);
    // Claimed before Stripe is called (one conditional update): two concurrent refunds of one
    // purchase never both reach Stripe. A failed refund call gives the claim back.
    if (!(await claimRefund(ctx.db, ctx.auth.project.id, row.id, ctx.now))) throw alreadyRefunded(oneTime, row.id);
    if (plan.amountMinor > 0) {
      try {
        // One idempotency key per purchase (a purchase is refunded once): when Stripe refunded but its
        // answer was lost, the claim is given back and the owner's retry gets Stripe's first answer
        // instead of refunding twice (a different amount is refused by Stripe, within its 24 hours).
        await stripe.refunds.create(
          { payment_intent: row.stripe_payment_intent_id!, amount: plan.amountMinor, metadata: { gatehouse_purchase_id: row.id } },
          { idempotencyKey: `gatehouse-refund-${row.id}` },
        );
      } catch (error) {
        await releaseRefund(ctx.db, ctx.auth.project.id, row.id, ctx.now);
        throw error;
      }
    }
    // The money is back with the customer: the refund is recorded whatever Stripe says next, and
    // the subscription change it implies goes through the Stripe outbox in the same transaction.
    const change = stripeChangeOf(row, body.refund_entries !== undefined, plan);
    const revokedAll = plan.revoke >= row.quantity;
    await ctx.transaction(async (tx) => {
      await updatePurchase(tx.db, ctx.auth.project.id, row.id, {
        refunded_at: ctx.now,
        refunded_quantity: plan.revoke,
        updated_at: ctx.now,
        ...(revokedAll ? { status: 'refunded' } : {}),
        ...(revokedAll && row.kind === 'subscription' ? { current_period_end: ctx.now } : {}),
        ...(!revokedAll && plan.end === 'at-period-end' ? { cancel_at_period_end: true } : {}),
      });
      if (change) await queueStripeChange(tx, [row], change);
    });
    if (body.refund_entries !== undefined) return { success: true };
    return { success: true, refund_transaction_id: `${row.id}:refund` };
  },
});

/**
 * What Stripe must do to the purchase's subscription after the refund, or null (none, or it has
 * ended already): with refund entries that revoke units, its quantity drops to what is left (at
 * the period's end when none is); else it is canceled now or at the period's end as planned.
 */
function stripeChangeOf(row: PurchaseRow, byEntries: boolean, plan: RefundPlan): StripeSubscriptionChange | null {
  if (row.stripe_subscription_id === null || row.status === 'canceled') return null;
  if (byEntries && plan.revoke > 0) return { action: 'set_quantity', quantity: row.quantity - plan.revoke };
  if (plan.end === 'now') return { action: 'cancel' };
  if (plan.end === 'at-period-end') return { action: 'cancel_at_period_end' };
  return null;
}

/**
 * What a request asks for: from `refund_entries` (checked as upstream), else from `amount_usd`
 * (at most what was charged, a plain 400 above it) and `end_action`.
 */
function planRefund(
  row: PurchaseRow,
  body: { refund_entries?: Array<{ entry_index: number; quantity: number; amount_usd: string }>; amount_usd?: string; end_action?: string },
): RefundPlan {
  if (body.refund_entries !== undefined) {
    const { quantity, amountMinor } = checkRefundEntries(row, body.refund_entries);
    return { revoke: quantity, amountMinor, end: quantity >= row.quantity ? 'at-period-end' : 'none' };
  }
  const charged = chargedMinor(row) ?? 0;
  const amountMinor = body.amount_usd === undefined ? charged : toMinorUnits(body.amount_usd, 'USD')!;
  if (amountMinor > charged || (body.amount_usd !== undefined && row.currency !== 'USD'))
    throw paymentsPlainError.badRequest('The refund amount is more than what was charged.');
  const end = END_ACTIONS[body.end_action ?? 'now']!;
  return { revoke: row.kind === 'one_time' || end === 'now' ? row.quantity : 0, amountMinor, end };
}

function alreadyRefunded(oneTime: boolean, id: string): KnownError {
  return oneTime
    ? new KnownError('ONE_TIME_PURCHASE_ALREADY_REFUNDED', { one_time_purchase_id: id })
    : new KnownError('SUBSCRIPTION_ALREADY_REFUNDED', { subscription_id: id });
}
