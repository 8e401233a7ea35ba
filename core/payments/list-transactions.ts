import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { TransactionsOutput } from './outputs.ts';
import { listProjectItemChanges, listProjectPurchases } from './queries.ts';
import { CustomerTypeSchema } from './schemas.ts';
import { manualChangeTransaction, purchaseTransaction, refundTransaction } from './transactions.ts';

const TYPES = [
  'purchase',
  'subscription-cancellation',
  'subscription-renewal',
  'manual-item-quantity-change',
  'refund',
  'chargeback',
  'product-change',
] as const;
const MAX_SCAN = 5000;

/**
 * Lists the project's transactions, newest first, in upstream's shape (admin access; the
 * dashboard and the SDK's `listTransactions`; core/payments/transactions.ts). Query: `cursor` (opaque, from `next_cursor`), `limit` (1–200,
 * default 50), `type`, `customer_type`, `customer_id`. Scans at most the newest 5,000 purchases
 * and changes.
 *
 * @see upstream `internal/payments/transactions/route.tsx`
 */
export const listTransactions = defineOperation({
  id: 'payments.listTransactions',
  method: 'GET',
  path: '/internal/payments/transactions',
  summary: 'List payment transactions of the project.',
  access: ['admin'],
  input: {
    query: v.strictObject({
      cursor: v.optional(v.pipe(v.string(), v.regex(/^\d{1,6}$/, 'must be a cursor from next_cursor'))),
      limit: v.optional(
        v.pipe(
          v.string(),
          v.regex(/^\d{1,3}$/, 'must be a number'),
          v.transform(Number),
          v.minValue(1, 'must be at least 1'),
          v.maxValue(200, 'must be at most 200'),
        ),
      ),
      type: v.optional(v.picklist(TYPES)),
      customer_type: v.optional(CustomerTypeSchema),
      customer_id: v.optional(v.pipe(v.string(), v.maxLength(256))),
    }),
  },
  output: TransactionsOutput,
  errors: [],
  async run(ctx, { query }) {
    const offset = query.cursor === undefined ? 0 : Number(query.cursor);
    const limit = query.limit ?? 50;
    const purchases = await listProjectPurchases(ctx.db, ctx.auth.project.id, ctx.auth.branchId, {
      limit: MAX_SCAN,
      ...(query.customer_type ? { customerType: query.customer_type } : {}),
    });
    const changes = await listProjectItemChanges(ctx.db, ctx.auth.project.id, ctx.auth.branchId, MAX_SCAN);
    let all = [
      ...purchases.map(purchaseTransaction),
      ...purchases.filter((p) => p.refunded_at !== null).map(refundTransaction),
      ...changes.map((c) => manualChangeTransaction({ ...c, delta: Number(c.delta), created_at: Number(c.created_at) })),
    ];
    all = all.filter(
      (t) =>
        (!query.type || t.type === query.type) &&
        (!query.customer_type || t.customer_type === query.customer_type) &&
        (!query.customer_id || t.customer_id === query.customer_id),
    );
    all.sort((a, b) => b.created_at_millis - a.created_at_millis || (a.id < b.id ? 1 : -1));
    const page = all.slice(offset, offset + limit);
    return { transactions: page, next_cursor: offset + limit < all.length ? String(offset + limit) : null };
  },
});
