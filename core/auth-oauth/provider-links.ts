import { StatusError } from '../errors/index.ts';
import type { AccessType } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import { deleteUserAccounts, listUserAccounts, type OAuthAccountRow } from './queries.ts';
import * as v from 'valibot';
import { component } from '../operations/output.ts';

const clientOAuthProviderEntries = {
  user_id: v.string(),
  id: v.string(),
  email: v.optional(v.string()),
  provider_config_id: v.string(),
  type: v.string(),
  allow_sign_in: v.boolean(),
  allow_connected_accounts: v.boolean(),
};

/** A linked OAuth account as {@link toOAuthProviderWire} shows it to a client. */
export const ClientOAuthProviderOutput = component('ClientOAuthProvider', v.strictObject(clientOAuthProviderEntries));

/** A linked OAuth account as {@link toOAuthProviderWire} shows it to a server or admin (with the provider's account id). */
export const ServerOAuthProviderOutput = component(
  'ServerOAuthProvider',
  v.strictObject({ ...clientOAuthProviderEntries, account_id: v.string() }),
);

/** A linked OAuth account in the caller's view. */
export const OAuthProviderOutput = v.union([ServerOAuthProviderOutput, ClientOAuthProviderOutput]);

/**
 * The wire form of a user's linked provider account (`/oauth-providers`, stack-shared
 * `oauthProviderCrud`): `id` is the link's own id, `provider_config_id` the provider's id;
 * `account_id` (the provider's id of the account) only for server and admin callers.
 */
export function toOAuthProviderWire(account: OAuthAccountRow, project: Project, accessType: AccessType) {
  const config = project.config.oauthProviders.find((p) => p.id === account.provider_id);
  return {
    user_id: account.user_id,
    id: account.id,
    ...(account.email !== null ? { email: account.email } : {}),
    provider_config_id: account.provider_id,
    type: config?.type ?? 'standard',
    allow_sign_in: account.allow_sign_in,
    allow_connected_accounts: account.allow_connected_accounts,
    ...(accessType === 'client' ? {} : { account_id: account.provider_account_id }),
  };
}

/**
 * One linked account of a user, by the link's id (or, for older clients, by provider id).
 *
 * @throws StatusError 404 "OAuth provider not found for this user" (upstream `oauth-providers/crud.tsx`)
 */
export async function getUserAccount(
  db: Kysely<Database>,
  projectId: string,
  userId: string,
  idOrProviderId: string,
): Promise<OAuthAccountRow> {
  const accounts = await listUserAccounts(db, projectId, userId);
  const account = accounts.find((a) => a.id === idOrProviderId) ?? accounts.find((a) => a.provider_id === idOrProviderId);
  if (!account) throw new StatusError('not-found', 'OAuth provider not found for this user');
  return account;
}

/**
 * Unlinks every provider account of a user and drops their stored tokens; what a password reset
 * that first proves the address does with whatever an account pre-registrant could have linked
 * (docs/security.md "Account ownership"). Joins the caller's transaction.
 *
 * @returns how many accounts were unlinked.
 */
export async function removeAllLinkedAccounts(db: Kysely<Database>, projectId: string, userId: string): Promise<number> {
  return deleteUserAccounts(db, projectId, userId);
}
