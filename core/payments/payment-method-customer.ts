import type { CustomerRef } from './grant.ts';

/** The plain 403 a client gets for another customer's payment method (upstream's words). */
export const FORBIDDEN_PAYMENT_METHOD = 'Clients can only manage their own payment method.';

/** The customer a payment-method route's path names, in the caller's project and branch. */
export function customerOf(
  auth: { project: { id: string }; branchId: string },
  params: { customer_type: 'user' | 'team'; customer_id: string },
): CustomerRef {
  return { projectId: auth.project.id, branchId: auth.branchId, customerType: params.customer_type, customerId: params.customer_id };
}
