import * as v from 'valibot';
import type Stripe from 'stripe';
import { KnownError } from '../errors/index.ts';
import { defineOperation, type OperationContext } from '../operations/define.ts';
import { WebhookReceivedOutput } from './outputs.ts';
import { grantProduct } from './grant.ts';
import { loadPaymentsModelFor, parseProduct, type CustomerType } from './model.ts';
import { STRIPE_METADATA } from './purchase-session.ts';
import {
  findPurchaseByCheckoutSession,
  findPurchaseByStripeSubscription,
  findPurchaseCode,
  recordStripeEvent,
  type PurchaseRow,
  updatePurchase,
  usePurchaseCode,
} from './queries.ts';
import { connectedStripe } from './stripe-account.ts';
import { queueStripeChange } from './stripe-outbox.ts';
import { recordStripeInvoice } from './invoices.ts';

type Obj = Record<string, unknown>;
const obj = (x: unknown): Obj => (typeof x === 'object' && x !== null ? (x as Obj) : {});
const str = (x: unknown): string | null => (typeof x === 'string' && x !== '' ? x : null);
/** A Stripe reference: an id, or an expanded object's id. */
const ref = (x: unknown): string | null => str(x) ?? str(obj(x).id);
const secs = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x * 1000 : null);

/** A subscription's current period (ms), from the subscription (older API versions) or its first item (2025+). */
function periodOf(sub: Obj): { start: number | null; end: number | null } {
  const item = obj((obj(sub.items).data as unknown[] | undefined)?.[0]);
  return {
    start: secs(sub.current_period_start) ?? secs(item.current_period_start),
    end: secs(sub.current_period_end) ?? secs(item.current_period_end),
  };
}

/** The subscription an invoice bills (older `subscription`, or 2025+ `parent.subscription_details.subscription`). */
function invoiceSubscription(invoice: Obj): string | null {
  return (
    ref(invoice.subscription) ??
    ref(obj(obj(invoice.parent).subscription_details).subscription) ??
    ref(obj(obj(obj((obj(invoice.lines).data as unknown[] | undefined)?.[0]).parent).subscription_item_details).subscription)
  );
}

/**
 * Records the invoice of an `invoice.*` event when it bills a subscription purchase of this
 * project and branch (upstream `upsertStripeInvoice`); other invoices are ignored.
 */
async function recordInvoice(ctx: OperationContext, projectId: string, branchId: string, invoice: Obj): Promise<void> {
  const invoiceId = str(invoice.id);
  const subId = invoiceSubscription(invoice);
  if (!invoiceId || !subId) return;
  const purchase = await findPurchaseByStripeSubscription(ctx.db, projectId, subId);
  if (!purchase || purchase.branch_id !== branchId) return;
  await recordStripeInvoice(
    ctx.db,
    purchase,
    {
      stripeInvoiceId: invoiceId,
      stripeSubscriptionId: subId,
      isCreationInvoice: invoice.billing_reason === 'subscription_create',
      status: str(invoice.status),
      amountTotal: typeof invoice.total === 'number' && Number.isInteger(invoice.total) ? invoice.total : null,
      hostedInvoiceUrl: str(invoice.hosted_invoice_url),
    },
    ctx.now,
  );
}

/** Statuses Gatehouse keeps from Stripe's subscription statuses. */
function statusOf(stripeStatus: unknown): string {
  return stripeStatus === 'trialing' || stripeStatus === 'past_due' || stripeStatus === 'canceled' || stripeStatus === 'incomplete'
    ? stripeStatus
    : 'active';
}

/** Data fetched from Stripe before the event is applied (no network call inside the transaction). */
interface Prefetched {
  subscription: Obj | null;
}

async function prefetch(stripe: Stripe, event: Stripe.Event): Promise<Prefetched> {
  if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') {
    const subId = ref(obj(event.data.object).subscription);
    if (subId) return { subscription: (await stripe.subscriptions.retrieve(subId)) as unknown as Obj };
  }
  return { subscription: null };
}

/**
 * Applies one verified Stripe event inside the caller's transaction:
 * - `checkout.session.completed` / `…async_payment_succeeded` (paid): grants the product of the
 *   session's purchase code (its price from the code's snapshot of config), once per session; the
 *   purchases it replaced in their product line are returned (the caller queues the
 *   cancellation of their Stripe subscriptions in the Stripe outbox, in the same transaction);
 * - every `invoice.*` event: records the invoice of a subscription purchase (listed by
 *   `GET /payments/invoices/…`);
 * - `invoice.paid` / `invoice.payment_succeeded`: renews the subscription's period;
 * - `customer.subscription.updated`: status, period, cancel-at-period-end;
 * - `customer.subscription.deleted`: ends the subscription now (its product and the items that
 *   expire with it are gone).
 * Other types are acknowledged and ignored.
 */
async function applyEvent(
  ctx: OperationContext,
  projectId: string,
  branchId: string,
  event: Stripe.Event,
  pre: Prefetched,
): Promise<PurchaseRow[]> {
  const o = obj(event.data.object);
  if (event.type.startsWith('invoice.')) await recordInvoice(ctx, projectId, branchId, o);
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      if (o.payment_status === 'unpaid') return [];
      const meta = obj(o.metadata);
      if (meta[STRIPE_METADATA.project] !== projectId) return [];
      const sessionId = str(o.id);
      if (!sessionId || (await findPurchaseByCheckoutSession(ctx.db, projectId, sessionId))) return [];
      const codeHash = str(meta[STRIPE_METADATA.code]);
      const code = codeHash ? await findPurchaseCode(ctx.db, codeHash) : null;
      if (!code || code.project_id !== projectId) return [];
      const model = await loadPaymentsModelFor(ctx, projectId, code.branch_id);
      const product = parseProduct(code.product_id ?? 'inline', JSON.parse(code.product));
      const period = pre.subscription ? periodOf(pre.subscription) : { start: null, end: null };
      const granted = await grantProduct(
        ctx.db,
        model,
        { projectId, branchId: code.branch_id, customerType: code.customer_type as CustomerType, customerId: code.customer_id },
        {
          productId: code.product_id,
          product,
          priceId: str(meta[STRIPE_METADATA.price]) ?? undefined,
          quantity: Math.max(1, Number(meta[STRIPE_METADATA.quantity]) || 1),
          paid: true,
          now: ctx.now,
          source: {
            creationSource: 'PURCHASE_PAGE',
            testMode: false,
            stripe: {
              customerId: ref(o.customer),
              checkoutSessionId: sessionId,
              subscriptionId: ref(o.subscription),
              paymentIntentId: ref(o.payment_intent),
              periodStart: period.start,
              periodEnd: period.end,
              status: pre.subscription ? statusOf(pre.subscription.status) : null,
            },
          },
        },
      );
      await usePurchaseCode(ctx.db, code.code_hash, ctx.now);
      return granted.replaced;
    }
    case 'invoice.paid':
    case 'invoice.payment_succeeded': {
      const subId = invoiceSubscription(o);
      const purchase = subId ? await findPurchaseByStripeSubscription(ctx.db, projectId, subId) : null;
      if (!purchase || purchase.branch_id !== branchId || purchase.status === 'refunded') return [];
      const line = obj(obj((obj(o.lines).data as unknown[] | undefined)?.[0]).period);
      const start = secs(line.start) ?? secs(o.period_start);
      const end = secs(line.end) ?? secs(o.period_end);
      await updatePurchase(ctx.db, projectId, purchase.id, {
        status: 'active',
        updated_at: ctx.now,
        ...(start !== null ? { current_period_start: start } : {}),
        ...(end !== null && end > start! ? { current_period_end: end } : {}),
        ...(ref(o.payment_intent) ? { stripe_payment_intent_id: ref(o.payment_intent) } : {}),
      });
      return [];
    }
    case 'customer.subscription.updated': {
      const purchase = await findPurchaseByStripeSubscription(ctx.db, projectId, String(o.id));
      if (!purchase || purchase.status === 'refunded') return [];
      const period = periodOf(o);
      await updatePurchase(ctx.db, projectId, purchase.id, {
        status: statusOf(o.status),
        cancel_at_period_end: o.cancel_at_period_end === true,
        updated_at: ctx.now,
        ...(period.start !== null ? { current_period_start: period.start } : {}),
        ...(period.end !== null ? { current_period_end: period.end } : {}),
      });
      return [];
    }
    case 'customer.subscription.deleted': {
      const purchase = await findPurchaseByStripeSubscription(ctx.db, projectId, String(o.id));
      if (!purchase || purchase.status === 'refunded') return [];
      const endedAt = secs(o.ended_at) ?? ctx.now;
      await updatePurchase(ctx.db, projectId, purchase.id, {
        status: 'canceled',
        current_period_end: Math.min(endedAt, ctx.now),
        updated_at: ctx.now,
      });
      return [];
    }
    default:
      return [];
  }
}

const invalidSignature = () => new KnownError('STRIPE_WEBHOOK_SIGNATURE_INVALID');

/**
 * The endpoint to give Stripe (public; its URL is shown in the Stripe account info): verifies the `stripe-signature`
 * header over the raw body with `stripe.webhooks.constructEvent` and the project's webhook
 * signing secret, then applies the event once: its id is recorded in the same transaction that
 * applies it, so a replayed or redelivered event changes nothing. A missing or bad signature, a
 * payload that is not an event and a project without a connected Stripe account fail alike, on
 * purpose.
 *
 * @see upstream `integrations/stripe/webhooks/route.tsx` (Connect accounts there; the project's own account here)
 */
export const stripeWebhook = defineOperation({
  id: 'payments.stripeWebhook',
  method: 'POST',
  path: '/integrations/stripe/webhooks',
  summary: 'Receive a signed Stripe webhook event.',
  access: 'public',
  rawBody: { signedBy: 'stripe' },
  input: {
    query: v.strictObject({ project_id: v.pipe(v.string(), v.maxLength(64)), branch_id: v.optional(v.pipe(v.string(), v.maxLength(64))) }),
    body: v.strictObject({ payload: v.string(), signature: v.optional(v.string()) }),
  },
  output: WebhookReceivedOutput,
  errors: ['STRIPE_WEBHOOK_SIGNATURE_INVALID', 'STRIPE_UNAVAILABLE'],
  async run(ctx, { query, body }) {
    const projectId = query.project_id;
    const branchId = query.branch_id ?? 'main';
    if (!body.signature) throw invalidSignature();
    const connected = await connectedStripe(ctx.runtime, ctx.db, projectId, branchId);
    if (!connected?.webhookSecret) throw invalidSignature();
    let event: Stripe.Event;
    try {
      event = connected.stripe.webhooks.constructEvent(body.payload, body.signature, connected.webhookSecret);
    } catch {
      throw invalidSignature();
    }
    if (typeof event?.id !== 'string' || typeof event.type !== 'string') throw invalidSignature();
    const pre = await prefetch(connected.stripe, event);
    await ctx.transaction(async (tx) => {
      if (!(await recordStripeEvent(tx.db, projectId, event.id, event.type, ctx.now))) return;
      // Replaced subscriptions are canceled in Stripe through the outbox, recorded with the event.
      await queueStripeChange(tx, await applyEvent(tx, projectId, branchId, event, pre), { action: 'cancel' });
    });
    return { received: true };
  },
});
