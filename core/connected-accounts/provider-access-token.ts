import { KnownError } from '../errors/index.ts';
import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { getUser } from '../users/index.ts';
import {
  findProviderConfig,
  invalidateProviderToken,
  listLinkedAccounts,
  listValidProviderTokens,
  openProviderToken,
  refreshAtProvider,
  resolveProvider,
  storeProviderTokens,
  tokenScopes,
} from '../auth-oauth/index.ts';
import * as v from 'valibot';
import { component } from '../operations/output.ts';

/** A stored access token is handed out only while it has at least this long to live (upstream: 5 minutes). */
const MIN_REMAINING_MS = 5 * 60 * 1000;

/** Errors of the access-token operations. */
export const ACCESS_TOKEN_ERRORS = [
  'USER_NOT_FOUND',
  'CANNOT_GET_OWN_USER_WITHOUT_USER',
  'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED',
  'OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS',
  'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER',
  'OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE',
  'OAUTH_PROVIDER_URL_NOT_ALLOWED',
] as const;

/**
 * A provider access token of a user's connected account for `scope` (space-separated, all must
 * have been granted): a stored one with at least 5 minutes left, else one freshly obtained with a
 * stored refresh token (RFC 6749 §6), which is then kept (encrypted). A refresh token the provider
 * rejects is marked invalid. Network I/O happens outside transactions.
 * Upstream `connected-accounts/[user_id]/[provider_id]/access-token/crud.tsx`.
 *
 * @param providerAccountId only this account of the provider (the per-account route)
 * @throws KnownError OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED, OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS,
 *   OAUTH_CONNECTION_NOT_CONNECTED_TO_USER, OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE
 */
export async function providerAccessToken(
  ctx: OperationContext,
  project: Project,
  userId: string,
  providerId: string,
  scope: string | undefined,
  providerAccountId?: string,
): Promise<{ access_token: string }> {
  const config = findProviderConfig(project, providerId);
  if (!config) throw new KnownError('OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED');
  if (config.type === 'shared') throw new KnownError('OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS');
  await getUser(ctx.db, project.id, userId);
  const accounts = (await listLinkedAccounts(ctx.db, project.id, userId, providerId)).filter(
    (a) => a.allow_connected_accounts && (providerAccountId === undefined || a.provider_account_id === providerAccountId),
  );
  if (accounts.length === 0) throw new KnownError('OAUTH_CONNECTION_NOT_CONNECTED_TO_USER');
  const wanted = (scope ?? '').split(/\s+/).filter(Boolean);
  const covers = (scopes: string[]) => wanted.every((s) => scopes.includes(s));
  const ids = accounts.map((a) => a.id);

  for (const row of await listValidProviderTokens(ctx.db, project.id, ids, 'access')) {
    if (!covers(tokenScopes(row)) || (row.expires_at !== null && Number(row.expires_at) < ctx.now + MIN_REMAINING_MS)) continue;
    const token = openProviderToken(ctx.runtime, row);
    if (token) return { access_token: token };
  }

  const refreshRows = (await listValidProviderTokens(ctx.db, project.id, ids, 'refresh')).filter((r) => covers(tokenScopes(r)));
  if (refreshRows.length === 0) throw new KnownError('OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE');
  const provider = await resolveProvider(ctx.runtime, project, providerId);
  for (const row of refreshRows) {
    const refreshToken = openProviderToken(ctx.runtime, row);
    if (!refreshToken) continue;
    const result = await refreshAtProvider(ctx.runtime, provider, refreshToken, scope);
    if (!result.ok) {
      if (result.invalidGrant) await invalidateProviderToken(ctx.db, project.id, row.id);
      continue;
    }
    await ctx.transaction(async (tx) => {
      // A rotated refresh token replaces the one used (RFC 9700 §4.14.2).
      if (result.tokens.refreshToken && result.tokens.refreshToken !== refreshToken)
        await invalidateProviderToken(tx.db, project.id, row.id);
      else result.tokens.refreshToken = null;
      await storeProviderTokens(tx, project.id, row.oauth_account_id, result.tokens, tokenScopes(row));
    });
    return { access_token: result.tokens.accessToken };
  }
  throw new KnownError('OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE');
}

/** A provider access token as {@link providerAccessToken} answers it. */
export const ProviderAccessTokenOutput = component('ProviderAccessToken', v.strictObject({ access_token: v.string() }));
