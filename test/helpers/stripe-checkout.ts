import assert from 'node:assert/strict';
import { api, type Caller } from './api.ts';
import { codeOf } from './payments.ts';
import { sendStripeEvent, type StripeCall, startStripeApi } from './stripe-api.ts';
import type { TestServer } from './server.ts';

/**
 * Buys `productId` (price `priceId`) for a user through the hosted purchase page's Stripe path:
 * purchase URL, purchase session (a Checkout Session on the loopback Stripe API, which creates the
 * subscription for a recurring price) and the signed `checkout.session.completed` event.
 *
 * @returns the Stripe subscription id (null for a one-off price) and the session id.
 */
export async function buyThroughStripe(
  server: TestServer,
  stripeApi: Awaited<ReturnType<typeof startStripeApi>>,
  p: { projectId: string },
  user: { id: string; client?: Caller },
  options: {
    productId: string;
    priceId: string;
    webhookSecret: string;
    stripeCustomer: string;
    paymentIntent?: string;
    /** A purchase URL made already (by an SDK's `createCheckoutUrl`); else the user's client makes one for `productId`. */
    purchaseUrl?: string;
  },
): Promise<{ subscriptionId: string | null; sessionId: string }> {
  let purchaseUrl = options.purchaseUrl;
  if (purchaseUrl === undefined) {
    const url = await api(server, 'POST', '/payments/purchases/create-purchase-url', user.client ?? {}, {
      customer_type: 'user',
      customer_id: user.id,
      product_id: options.productId,
    });
    assert.equal(url.status, 200, url.text);
    purchaseUrl = url.body.url as string;
  }
  const before = stripeApi.calls.length;
  const session = await api(
    server,
    'POST',
    '/payments/purchases/purchase-session',
    {},
    { full_code: codeOf(purchaseUrl), price_id: options.priceId },
  );
  assert.equal(session.status, 200, session.text);
  const created = stripeApi.calls.slice(before).find((c) => c.path === '/v1/checkout/sessions')! as StripeCall & {
    subscriptionId?: string;
  };
  const completed = await sendStripeEvent(
    server,
    p.projectId,
    {
      id: `evt_${session.body.session_id}`,
      type: 'checkout.session.completed',
      data: {
        object: {
          id: session.body.session_id,
          object: 'checkout.session',
          mode: created.form.mode,
          payment_status: 'paid',
          status: 'complete',
          customer: options.stripeCustomer,
          subscription: created.subscriptionId ?? null,
          payment_intent: options.paymentIntent ?? null,
          metadata: Object.fromEntries(
            Object.entries(created.form)
              .filter(([k]) => k.startsWith('metadata['))
              .map(([k, v]) => [k.slice(9, -1), v]),
          ),
        },
      },
    },
    options.webhookSecret,
  );
  assert.equal(completed.status, 200, completed.text);
  return { subscriptionId: created.subscriptionId ?? null, sessionId: session.body.session_id };
}
