import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { OwnedProductsOutput } from './outputs.ts';
import { ensureCallerCanAccessCustomer, ensureCustomerExists } from './customers.ts';
import { ownedProducts } from './grant.ts';
import { loadPaymentsModel } from './model.ts';
import { ownedProductPage } from './owned-product-list.ts';
import { CustomerTypeSchema } from './schemas.ts';

/**
 * Lists the products the customer owns (client for itself, server, admin), one entry per product
 * id, paged as upstream (see `ownedProductPage`); `subscription` is `{ subscription_id,
 * current_period_end (ISO), cancel_at_period_end, is_cancelable }` or null. What the SDK's
 * `listProducts` reads.
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
  async run(ctx, { params, query }) {
    await ensureCallerCanAccessCustomer(
      ctx.db,
      ctx.auth,
      params.customer_type,
      params.customer_id,
      'Clients can only list their own user or team products.',
    );
    await ensureCustomerExists(ctx.db, ctx.auth.project.id, params.customer_type, params.customer_id);
    const model = await loadPaymentsModel(ctx);
    const owned = await ownedProducts(
      ctx.db,
      model,
      {
        projectId: ctx.auth.project.id,
        branchId: ctx.auth.branchId,
        customerType: params.customer_type,
        customerId: params.customer_id,
      },
      ctx.now,
    );
    return ownedProductPage(model, params.customer_type, ctx.auth.accessType, owned, query);
  },
});
