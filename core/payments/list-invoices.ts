import * as v from 'valibot';
import { KnownError } from '../errors/index.ts';
import { defineOperation } from '../operations/define.ts';
import { ensureCallerCanAccessCustomer } from './customers.ts';
import { customerInvoicePage } from './invoices.ts';
import { InvoicesOutput } from './outputs.ts';
import { BillingCustomerParamsSchema } from './schemas.ts';

/**
 * A customer's Stripe subscription invoices, newest first (client for itself, server, admin; the
 * SDK's `listInvoices`): `{ created_at_millis, status, amount_total, hosted_invoice_url }` per
 * invoice, paged by `cursor` (an invoice id from `next_cursor`) and `limit` (1–100, default 10).
 * Invoices are recorded from the project's Stripe `invoice.*` webhook events; none without Stripe.
 *
 * @throws a plain 403 "Clients can only manage their own billing." for another customer; a plain
 * 400 "Invalid cursor"; SCHEMA_ERROR for a limit outside 1–100.
 * @see upstream `payments/invoices/[customer_type]/[customer_id]/route.ts`
 */
export const listInvoices = defineOperation({
  id: 'payments.listInvoices',
  method: 'GET',
  path: '/payments/invoices/:customer_type/:customer_id',
  summary: "List a customer's invoices.",
  access: ['client', 'server', 'admin'],
  input: {
    params: BillingCustomerParamsSchema,
    query: v.strictObject({
      cursor: v.optional(v.pipe(v.string(), v.maxLength(256))),
      limit: v.optional(v.pipe(v.string(), v.maxLength(16))),
    }),
  },
  output: InvoicesOutput,
  errors: ['USER_AUTHENTICATION_REQUIRED', 'TEAM_PERMISSION_REQUIRED'],
  async run(ctx, { params, query }) {
    await ensureCallerCanAccessCustomer(
      ctx.db,
      ctx.auth,
      params.customer_type,
      params.customer_id,
      'Clients can only manage their own billing.',
    );
    const limit = query.limit === undefined ? 10 : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      throw new KnownError('SCHEMA_ERROR', { message: 'limit must be between 1 and 100' });
    }
    return customerInvoicePage(
      ctx.db,
      { projectId: ctx.auth.project.id, branchId: ctx.auth.branchId, customerType: params.customer_type, customerId: params.customer_id },
      query.cursor,
      limit,
    );
  },
});
