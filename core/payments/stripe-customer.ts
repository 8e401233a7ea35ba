import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import type { Database } from '../storage/tables.ts';
import type { CustomerRef } from './grant.ts';
import { listCustomerPurchases } from './queries.ts';

/**
 * The Stripe customer (`cus_…`) of a Gatehouse customer: the one its latest Stripe purchase was
 * made as, else the one Stripe's customer search finds by `metadata.customerId` (with a matching
 * `metadata.customerType`, `USER` / `TEAM`, when set; upstream `getStripeCustomerForCustomerOrNull`),
 * else null.
 */
export async function stripeCustomerIdOf(db: Kysely<Database>, c: CustomerRef, stripe?: Stripe): Promise<string | null> {
  const rows = await listCustomerPurchases(db, c.projectId, c.branchId, c.customerType, c.customerId);
  const withCustomer = rows.filter((r) => r.stripe_customer_id !== null).sort((a, b) => Number(b.created_at) - Number(a.created_at));
  if (withCustomer[0]) return withCustomer[0].stripe_customer_id;
  if (!stripe || !/^[A-Za-z0-9_-]+$/.test(c.customerId)) return null;
  const found = await stripe.customers.search({ query: `metadata['customerId']:'${c.customerId}'` });
  const type = c.customerType.toUpperCase();
  return found.data.find((cus) => !cus.metadata.customerType || cus.metadata.customerType === type)?.id ?? null;
}

/**
 * The customer's Stripe customer, created (with `metadata.customerId` / `customerType`) when it has
 * none yet (upstream `ensureStripeCustomerForCustomer`).
 */
export async function ensureStripeCustomerId(db: Kysely<Database>, c: CustomerRef, stripe: Stripe): Promise<string> {
  const existing = await stripeCustomerIdOf(db, c, stripe);
  if (existing !== null) return existing;
  const created = await stripe.customers.create({ metadata: { customerId: c.customerId, customerType: c.customerType.toUpperCase() } });
  return created.id;
}

/** A card payment method as upstream summarises it: `{ id, brand, last4, exp_month, exp_year }`. */
export interface CardSummary {
  id: string;
  brand: string | null;
  last4: string | null;
  exp_month: number | null;
  exp_year: number | null;
}

/**
 * The customer's first card payment method (Stripe `GET /v1/customers/{id}/payment_methods`,
 * type card, limit 1), or null (upstream `getDefaultCardPaymentMethodSummary`).
 */
export async function defaultCardSummary(stripe: Stripe, customerId: string): Promise<CardSummary | null> {
  const list = await stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: 1 });
  const pm = list.data[0];
  if (!pm) return null;
  return {
    id: pm.id,
    brand: pm.card?.brand ?? null,
    last4: pm.card?.last4 ?? null,
    exp_month: pm.card?.exp_month ?? null,
    exp_year: pm.card?.exp_year ?? null,
  };
}
