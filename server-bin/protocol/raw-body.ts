import type { AnyOperation } from '../../core/index.ts';

/**
 * The request header that carries each signing sender's signature, for operations that take
 * their body unparsed (`rawBody.signedBy`, core/operations/define.ts): Stripe signs its webhook
 * events in `Stripe-Signature` (docs.stripe.com/webhooks "Verify webhook signatures").
 */
export const SIGNATURE_HEADER: Readonly<Record<NonNullable<AnyOperation['rawBody']>['signedBy'], string>> = {
  stripe: 'stripe-signature',
};
