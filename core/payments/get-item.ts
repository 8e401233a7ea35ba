import { defineOperation } from '../operations/define.ts';
import { ItemOutput } from './outputs.ts';
import { ensureCallerCanAccessCustomer, ensureCustomerExists } from './customers.ts';
import { itemQuantity, requireItem } from './items.ts';
import { loadPaymentsModel } from './model.ts';
import { ItemParamsSchema } from './schemas.ts';

/**
 * Reads a customer's item and its quantity, an integer that may be negative (client for its own
 * user or a team where it is `team_admin`; server, admin). What the SDK's `getItem` reads.
 *
 * @see upstream `payments/items/[customer_type]/[customer_id]/[item_id]/route.ts`
 */
export const getItem = defineOperation({
  id: 'payments.getItem',
  method: 'GET',
  path: '/payments/items/:customer_type/:customer_id/:item_id',
  summary: "Get a customer's quantity of an item.",
  access: ['client', 'server', 'admin'],
  input: { params: ItemParamsSchema },
  output: ItemOutput,
  errors: [
    'ITEM_NOT_FOUND',
    'ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH',
    'USER_NOT_FOUND',
    'TEAM_NOT_FOUND',
    'USER_AUTHENTICATION_REQUIRED',
    'TEAM_PERMISSION_REQUIRED',
  ],
  async run(ctx, { params }) {
    await ensureCallerCanAccessCustomer(
      ctx.db,
      ctx.auth,
      params.customer_type,
      params.customer_id,
      'Clients can only access their own user or team items.',
    );
    const model = await loadPaymentsModel(ctx);
    const item = requireItem(model, params.item_id, params.customer_type, params.customer_id);
    await ensureCustomerExists(ctx.db, ctx.auth.project.id, params.customer_type, params.customer_id);
    const key = {
      projectId: ctx.auth.project.id,
      branchId: ctx.auth.branchId,
      customerType: params.customer_type,
      customerId: params.customer_id,
      itemId: params.item_id,
    };
    return { id: params.item_id, display_name: item.displayName, quantity: await itemQuantity(ctx.db, model, key, ctx.now) };
  },
});
