import * as v from 'valibot';
import { CUSTOMER_TYPES } from './model.ts';

/** `customer_type` path and body field: `user`, `team` or `custom`. */
export const CustomerTypeSchema = v.picklist(CUSTOMER_TYPES, 'must be one of user, team, custom');

/** Path parameters of the item routes. */
export const ItemParamsSchema = v.strictObject({
  customer_type: CustomerTypeSchema,
  customer_id: v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(256, 'must be at most 256 characters')),
  item_id: v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(256, 'must be at most 256 characters')),
});

/** An ISO 8601 date-time string. */
export const IsoDateSchema = v.pipe(
  v.string(),
  v.check((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date'),
);

/** Path parameters of the billing routes (upstream allows `user` and `team` only there). */
export const BillingCustomerParamsSchema = v.strictObject({
  customer_type: v.picklist(['user', 'team'], 'must be one of user, team'),
  customer_id: v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(256, 'must be at most 256 characters')),
});
