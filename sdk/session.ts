import type { SdkEnvironment } from './env.ts';
import type { TokenStore, Tokens } from './tokens.ts';

/** Refresh when the access token is valid for less than this (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts): 20000 ms. */
export const TOKEN_FRESHNESS_MS = 20_000;

/** Reads a JWT's payload without checking its signature (the server checks it), or null. */
export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const json =
      typeof atob === 'function'
        ? decodeURIComponent(
            Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(
              '',
            ),
          )
        : '';
    const parsed = JSON.parse(json) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A token's expiry in epoch ms; `Infinity` when it has no `exp` (treated as never expiring). */
export function accessTokenExpiresAt(token: string): number {
  const exp = decodeJwtPayload(token)?.exp;
  return typeof exp === 'number' ? exp * 1000 : Infinity;
}

/** Fetches a new access token for a refresh token; null means a refresh-token error. */
export type RefreshFn = (refreshToken: string) => Promise<string | null>;

/**
 * A user session over a token store (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/): not signed in, signed in, or known
 * invalid. The access token is refreshed on demand when it has less than 20 s left; a failed
 * refresh marks the session invalid and clears both tokens; concurrent callers share one refresh.
 */
export class Session {
  private expiredAccessToken: string | null = null;
  private refreshing: Promise<string | null> | null = null;
  private invalid = false;

  readonly store: TokenStore;
  private readonly refresh: RefreshFn;
  private readonly env: Pick<SdkEnvironment, 'now'>;

  constructor(store: TokenStore, refresh: RefreshFn, env: Pick<SdkEnvironment, 'now'>) {
    this.store = store;
    this.refresh = refresh;
    this.env = env;
  }

  /** The stored tokens. */
  tokens(): Tokens {
    return this.store.get();
  }

  /** True when no refresh token is held (never signed in, signed out, or invalidated). */
  isSignedOut(): boolean {
    return !this.store.get().refreshToken;
  }

  /** True after a refresh-token error or sign-out, until new tokens are stored. */
  isKnownInvalid(): boolean {
    return this.invalid;
  }

  /** Stores the tokens of a sign-in; the session becomes valid again. */
  signIn(tokens: Tokens): void {
    this.invalid = false;
    this.expiredAccessToken = null;
    this.store.set(tokens);
  }

  /** Marks the session invalid and clears both tokens. */
  markInvalid(): void {
    this.invalid = true;
    this.store.set({ accessToken: null, refreshToken: null });
  }

  /** Marks the current access token expired (after INVALID_ACCESS_TOKEN): the next call refreshes. */
  markAccessTokenExpired(token?: string | null): void {
    this.expiredAccessToken = token ?? this.store.get().accessToken;
  }

  private usable(token: string | null): token is string {
    if (!token || token === this.expiredAccessToken) return false;
    return accessTokenExpiresAt(token) - this.env.now() >= TOKEN_FRESHNESS_MS;
  }

  /**
   * An access token valid for at least 20 s more, refreshing if needed; null when signed out or
   * when the refresh failed (the session is then invalid).
   */
  async getAccessToken(): Promise<string | null> {
    const { accessToken, refreshToken } = this.store.get();
    if (this.usable(accessToken)) return accessToken;
    if (!refreshToken) return null;
    if (!this.refreshing) {
      this.refreshing = (async () => {
        try {
          const next = await this.refresh(refreshToken);
          if (this.store.get().refreshToken !== refreshToken) return this.store.get().accessToken; // signed in elsewhere meanwhile
          if (next === null) {
            this.markInvalid();
            return null;
          }
          this.expiredAccessToken = null;
          this.store.set({ accessToken: next, refreshToken });
          return next;
        } finally {
          this.refreshing = null;
        }
      })();
    }
    return this.refreshing;
  }
}
