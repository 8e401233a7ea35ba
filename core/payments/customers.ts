import type { Kysely } from 'kysely';
import { KnownError, type KnownErrorCode } from '../errors/index.ts';
import { paymentsPlainError } from './plain-errors.ts';
import type { Database } from '../storage/tables.ts';
import type { RequestAuth } from '../auth/request-auth.ts';
import { isUuid } from '../lib/random.ts';
import { findUser } from '../users/index.ts';
import { findTeam } from '../teams/index.ts';
import { requireTeamPermission } from '../permissions/index.ts';
import type { CustomerType } from './model.ts';

/**
 * Throws USER_NOT_FOUND / TEAM_NOT_FOUND when a `user` or `team` customer does not exist in the
 * project; `custom` customers are any id the app chooses (upstream `ensureCustomerExists`).
 */
export async function ensureCustomerExists(
  db: Kysely<Database>,
  projectId: string,
  customerType: CustomerType,
  customerId: string,
): Promise<void> {
  if (customerType === 'user') {
    if (!isUuid(customerId) || !(await findUser(db, projectId, customerId))) throw new KnownError('USER_NOT_FOUND');
  } else if (customerType === 'team') {
    if (!isUuid(customerId) || !(await findTeam(db, projectId, customerId)))
      throw new KnownError('TEAM_NOT_FOUND', { team_id: customerId });
  }
}

/**
 * A client may only act for itself: its own user, or a team where it holds `team_admin`
 * (upstream `ensureClientCanAccessCustomer`). Server and admin callers pass.
 *
 * @throws USER_AUTHENTICATION_REQUIRED without a signed-in user; a plain 403 for another user or a
 * custom customer; TEAM_PERMISSION_REQUIRED without `team_admin` in the team.
 */
export async function ensureCallerCanAccessCustomer(
  db: Kysely<Database>,
  auth: RequestAuth,
  customerType: CustomerType,
  customerId: string,
  forbiddenMessage: string,
): Promise<void> {
  if (auth.accessType !== 'client') return;
  const user = auth.user;
  if (!user) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
  if (customerType === 'custom') throw paymentsPlainError.forbidden(forbiddenMessage);
  if (customerType === 'user') {
    if (customerId !== user.id) throw paymentsPlainError.forbidden(forbiddenMessage);
    return;
  }
  if (!isUuid(customerId))
    throw new KnownError('TEAM_PERMISSION_REQUIRED', { team_id: customerId, user_id: user.id, permission_id: 'team_admin' });
  await requireTeamPermission(db, auth.project.id, customerId, user.id, 'team_admin');
}

/**
 * The known errors of an operation on a customer's saved card (payments.createSetupIntent,
 * payments.setDefaultPaymentMethod): those of {@link ensureCallerCanAccessCustomer} and
 * {@link ensureCustomerExists}, then no connected Stripe account (`requireConnectedStripe`) and
 * Stripe unreachable.
 */
export const CUSTOMER_CARD_ERRORS: readonly KnownErrorCode[] = [
  'USER_NOT_FOUND',
  'TEAM_NOT_FOUND',
  'USER_AUTHENTICATION_REQUIRED',
  'TEAM_PERMISSION_REQUIRED',
  'STRIPE_ACCOUNT_INFO_NOT_FOUND',
  'STRIPE_UNAVAILABLE',
];
