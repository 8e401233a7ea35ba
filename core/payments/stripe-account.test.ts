import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { KnownError } from '../errors/index.ts';
import type { Runtime } from '../runtime.ts';
import { stripeClient } from './stripe-account.ts';

/** A loopback port with nothing listening: every Stripe call fails to connect. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the Stripe client of a project', () => {
  it('turns Stripe being unreachable into STRIPE_UNAVAILABLE on top-level and nested resources, and leaves webhooks.constructEvent alone', async () => {
    const warnings: string[] = [];
    const runtime = {
      stripeApiOverride: { host: '127.0.0.1', port: await closedPort(), protocol: 'http' },
      log: { warn: (_fields: unknown, message: string) => warnings.push(message) },
    } as unknown as Runtime;
    const stripe = await stripeClient(runtime, 'sk_test_unreachable');
    const unavailable = (error: unknown) =>
      error instanceof KnownError &&
      error.code === 'STRIPE_UNAVAILABLE' &&
      error.status === 503 &&
      (error.cause as { type?: string }).type === 'StripeConnectionError';
    await assert.rejects(stripe.refunds.create({ payment_intent: 'pi_1', amount: 100 }), unavailable);
    await assert.rejects(stripe.checkout.sessions.create({ mode: 'payment' }), unavailable);
    assert.deepEqual(warnings, ['Stripe unavailable', 'Stripe unavailable']);
    assert.throws(
      () => stripe.webhooks.constructEvent('{}', 't=1,v1=00', 'whsec_test'),
      (error: unknown) => !(error instanceof KnownError) && (error as { type?: string }).type === 'StripeSignatureVerificationError',
    );
  });
});
