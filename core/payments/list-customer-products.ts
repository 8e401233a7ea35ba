import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { OwnedProductsOutput } from './outputs.ts';
import { ensureCallerCanAccessCustomer, ensureCustomerExists } from './customers.ts';
import { ownedProducts } from './grant.ts';
import { loadPaymentsModel } from './model.ts';
import { productToWire } from './products.ts';
import { CustomerTypeSchema } from './schemas.ts';

/**
 * Lists the products the customer owns (client for itself, server, admin); `subscription` is
 * `{ subscription_id, current_period_end (ISO), cancel_at_period_end, is_cancelable }` or null.
 * What the SDK's `listProducts` reads. All owned products fit one page.
 *
 * @see upstream `payments/products/[customer_type]/[customer_id]/route.ts`
 */
export const listCustomerProducts = defineOperation({
  id: 'payments.listCustomerProducts',
  method: 'GET',
  path: '/payments/products/:customer_type/:customer_id',
  summary: 'List the products a customer owns.',
  access: ['client', 'server', 'admin'],
  input: {
    params: v.strictObject({ customer_type: CustomerTypeSchema, customer_id: v.pipe(v.string(), v.nonEmpty(), v.maxLength(256)) }),
    query: v.strictObject({
      cursor: v.optional(v.string()),
      limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,4}$/, 'must be a number'))),
    }),
  },
  output: OwnedProductsOutput,
  errors: ['USER_NOT_FOUND', 'TEAM_NOT_FOUND', 'USER_AUTHENTICATION_REQUIRED', 'TEAM_PERMISSION_REQUIRED'],
  async run(ctx, { params }) {
    await ensureCallerCanAccessCustomer(
      ctx.db,
      ctx.auth,
      params.customer_type,
      params.customer_id,
      'Clients can only list their own user or team products.',
    );
    await ensureCustomerExists(ctx.db, ctx.auth.project.id, params.customer_type, params.customer_id);
    const model = await loadPaymentsModel(ctx);
    const owned = await ownedProducts(ctx.db, model, {
      projectId: ctx.auth.project.id,
      branchId: ctx.auth.branchId,
      customerType: params.customer_type,
      customerId: params.customer_id,
    });
    const server = ctx.auth.accessType !== 'client';
    const items = [
      ...owned.defaults.map(([id, product]) => ({
        id,
        quantity: 1,
        product: productToWire(product, server),
        type: 'subscription',
        subscription: { subscription_id: null, current_period_end: null, cancel_at_period_end: false, is_cancelable: false },
      })),
      ...owned.purchases.map((p) => ({
        id: p.row.product_id,
        quantity: p.quantity,
        product: productToWire(p.product, server),
        type: p.kind,
        subscription:
          p.kind === 'subscription'
            ? {
                subscription_id: p.row.id,
                current_period_end: p.currentPeriodEnd === null ? null : new Date(p.currentPeriodEnd).toISOString(),
                cancel_at_period_end: p.row.cancel_at_period_end,
                is_cancelable: true,
              }
            : null,
      })),
    ];
    return { items, is_paginated: true, pagination: { next_cursor: null } };
  },
});
