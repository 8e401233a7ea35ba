import type { Kysely } from 'kysely';
import { uuid } from '../lib/random.ts';
import type { Database } from '../storage/tables.ts';
import { paymentsPlainError } from './plain-errors.ts';
import type { PurchaseRow } from './queries.ts';

/** What an `invoice.*` event says about one invoice. */
export interface StripeInvoiceFacts {
  stripeInvoiceId: string;
  stripeSubscriptionId: string;
  isCreationInvoice: boolean;
  status: string | null;
  amountTotal: number | null;
  hostedInvoiceUrl: string | null;
}

/**
 * Records (or updates) one Stripe invoice of a subscription purchase (upstream
 * `upsertStripeInvoice`): keyed by the Stripe invoice id within the project; the first sighting
 * sets `created_at`.
 */
export async function recordStripeInvoice(db: Kysely<Database>, purchase: PurchaseRow, facts: StripeInvoiceFacts, now: number) {
  const changes = {
    stripe_subscription_id: facts.stripeSubscriptionId,
    is_creation_invoice: facts.isCreationInvoice,
    status: facts.status,
    amount_total: facts.amountTotal,
    hosted_invoice_url: facts.hostedInvoiceUrl,
    updated_at: now,
  };
  await db
    .insertInto('payment_invoices')
    .values({
      id: uuid(),
      project_id: purchase.project_id,
      branch_id: purchase.branch_id,
      purchase_id: purchase.id,
      customer_type: purchase.customer_type,
      customer_id: purchase.customer_id,
      stripe_invoice_id: facts.stripeInvoiceId,
      created_at: now,
      ...changes,
    })
    .onConflict((oc) => oc.columns(['project_id', 'stripe_invoice_id']).doUpdateSet(changes))
    .execute();
}

const INVOICE_STATUSES = new Set(['draft', 'open', 'paid', 'uncollectible', 'void']);

/**
 * One page of a customer's invoices, newest first (`created_at`, then id, descending), as
 * upstream answers them: `{ created_at_millis, status, amount_total, hosted_invoice_url }`, a status
 * Stripe does not document as null, a missing total as 0; `next_cursor` is the last row's id when
 * the page is full.
 *
 * @throws a plain 400 "Invalid cursor" for a cursor that names no invoice of the project.
 */
export async function customerInvoicePage(
  db: Kysely<Database>,
  c: { projectId: string; branchId: string; customerType: string; customerId: string },
  cursor: string | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('payment_invoices')
    .select(['id', 'created_at', 'status', 'amount_total', 'hosted_invoice_url'])
    .where('project_id', '=', c.projectId)
    .where('branch_id', '=', c.branchId)
    .where('customer_type', '=', c.customerType)
    .where('customer_id', '=', c.customerId);
  if (cursor !== undefined && cursor !== '') {
    const pivot = await db
      .selectFrom('payment_invoices')
      .select(['created_at'])
      .where('project_id', '=', c.projectId)
      .where('id', '=', cursor)
      .executeTakeFirst();
    if (!pivot) throw paymentsPlainError.badRequest('Invalid cursor');
    const at = Number(pivot.created_at);
    query = query.where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', cursor)])]));
  }
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return {
    items: rows.map((r) => ({
      created_at_millis: Number(r.created_at),
      status: r.status !== null && INVOICE_STATUSES.has(r.status) ? r.status : null,
      amount_total: r.amount_total === null ? 0 : Number(r.amount_total),
      hosted_invoice_url: r.hosted_invoice_url,
    })),
    is_paginated: true as const,
    pagination: { next_cursor: rows.length === limit ? rows[rows.length - 1]!.id : null },
  };
}
