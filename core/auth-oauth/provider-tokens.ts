import { open, seal } from '../lib/secret-box.ts';
import { uuid } from '../lib/random.ts';
import type { OperationContext } from '../operations/define.ts';
import type { Runtime } from '../runtime.ts';
import { insertToken, type OAuthTokenRow } from './queries.ts';
import type { ProviderTokens } from './providers/types.ts';

/** HKDF `info` of the key that encrypts provider tokens at rest. */
const TOKEN_KEY_INFO = 'gatehouse oauth provider tokens v1';

const aadOf = (row: Pick<OAuthTokenRow, 'project_id' | 'oauth_account_id' | 'kind'>) =>
  `${row.project_id}:${row.oauth_account_id}:${row.kind}`;

/**
 * Keeps a provider's refresh token (when given) and access token for an account, encrypted with
 * AES-256-GCM under a key derived from the server secret (HKDF-SHA256), each bound to its
 * project, account and kind. Joins the caller's transaction.
 */
export async function storeProviderTokens(
  ctx: OperationContext,
  projectId: string,
  accountId: string,
  tokens: ProviderTokens,
  scopes: string[],
): Promise<void> {
  const key = ctx.runtime.deriveKey(TOKEN_KEY_INFO);
  const scopeText = scopes.join(' ');
  const put = async (kind: 'refresh' | 'access', token: string, expiresAt: number | null) => {
    const base = { project_id: projectId, oauth_account_id: accountId, kind };
    await insertToken(ctx.db, {
      id: uuid(),
      ...base,
      sealed_token: seal(key, token, aadOf(base)),
      scopes: scopeText,
      expires_at: expiresAt,
      is_valid: true,
      created_at: ctx.now,
    });
  };
  if (tokens.refreshToken) await put('refresh', tokens.refreshToken, null);
  await put('access', tokens.accessToken, tokens.accessTokenExpiresAt);
}

/** Decrypts a stored provider token; null when it cannot be opened (another secret, or altered). */
export function openProviderToken(runtime: Runtime, row: OAuthTokenRow): string | null {
  return open(runtime.deriveKey(TOKEN_KEY_INFO), row.sealed_token, aadOf(row));
}

/** The scopes of a stored token, as a list. */
export function tokenScopes(row: OAuthTokenRow): string[] {
  return row.scopes.split(' ').filter(Boolean);
}
