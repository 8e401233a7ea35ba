import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { EmptyOutput } from './outputs.ts';
import { ensureCustomerExists } from './customers.ts';
import { changeItemQuantity, requireItem } from './items.ts';
import { loadPaymentsModel } from './model.ts';
import { IsoDateSchema, ItemParamsSchema } from './schemas.ts';

/**
 * Adds `delta` (an integer, negative to decrease) to the customer's quantity of an item,
 * optionally expiring at `expires_at` (ISO 8601) (server, admin access). What the SDK's `increaseQuantity`,
 * `decreaseQuantity` (`allow_negative=true`) and `tryDecreaseQuantity` (`false`; it turns
 * insufficient-amount error into `false`) call. Atomic: see `changeItemQuantity`.
 *
 * @see upstream `payments/items/[customer_type]/[customer_id]/[item_id]/update-quantity/route.ts`
 */
export const updateItemQuantity = defineOperation({
  id: 'payments.updateItemQuantity',
  method: 'POST',
  path: '/payments/items/:customer_type/:customer_id/:item_id/update-quantity',
  summary: "Change a customer's quantity of an item.",
  access: ['server', 'admin'],
  input: {
    params: ItemParamsSchema,
    query: v.strictObject({ allow_negative: v.picklist(['true', 'false'], 'must be true or false') }),
    body: v.strictObject({
      delta: v.pipe(v.number(), v.integer('must be an integer'), v.safeInteger('must be a safe integer')),
      expires_at: v.optional(IsoDateSchema),
      description: v.optional(v.pipe(v.string(), v.maxLength(10_000, 'must be at most 10000 characters'))),
      idempotency_key: v.optional(
        v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(256, 'must be at most 256 characters')),
      ),
    }),
  },
  output: EmptyOutput,
  errors: ['ITEM_NOT_FOUND', 'ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH', 'USER_NOT_FOUND', 'TEAM_NOT_FOUND', 'ITEM_QUANTITY_INSUFFICIENT_AMOUNT'],
  async run(ctx, { params, query, body }) {
    const model = await loadPaymentsModel(ctx);
    requireItem(model, params.item_id, params.customer_type, params.customer_id);
    await ensureCustomerExists(ctx.db, ctx.auth.project.id, params.customer_type, params.customer_id);
    const key = {
      projectId: ctx.auth.project.id,
      branchId: ctx.auth.branchId,
      customerType: params.customer_type,
      customerId: params.customer_id,
      itemId: params.item_id,
    };
    await changeItemQuantity(ctx, model, key, {
      delta: body.delta,
      allowNegative: query.allow_negative === 'true',
      description: body.description ?? null,
      expiresAt: body.expires_at === undefined ? null : Date.parse(body.expires_at),
      idempotencyKey: body.idempotency_key ?? null,
    });
    return {};
  },
});
