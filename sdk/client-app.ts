import {
  assertWebAuthn,
  fixRpId,
  pkceChallenge,
  pkceVerifier,
  randomUrlSafe,
  storeOAuthVerifier,
  takeOAuthVerifier,
  webAuthnCeremony,
} from './browser-flows.ts';
import { AsyncCache } from './cache.ts';
import { defaultEnvironment, type SdkEnvironment } from './env.ts';
import {
  GatehouseConfigError,
  GatehouseKnownError,
  REFRESH_TOKEN_ERROR_CODES,
  UserNotSignedInError,
  isKnownErrorOf,
  type Result,
} from './errors.ts';
import type { AppCore } from './objects.ts';
import { routePath, type OperationId, type Operations } from './routes.ts';
import { crossDomainHandoffFrom } from './cross-domain.ts';
import {
  performRedirect,
  resolveUrls,
  returnToFrom,
  withAuthParams,
  withReturnTo,
  type HandlerUrls,
  type RedirectMethod,
} from './redirect.ts';
import { ApiClient } from './request.ts';
import { Session } from './session.ts';
import { authHeaderFor, resolveTokenStore, type TokenStoreInit, type Tokens } from './tokens.ts';
import { inProcessTransport, type MountedGatehouse } from './in-process.ts';
import { httpTransport, type Transport } from './transport.ts';
import { User } from './user.ts';
import type { WireClientProject, WireSignInResponse, WireUser } from './wire.ts';

/**
 * What a sign-in page hands over from Cloudflare Turnstile (upstream's `BotChallengeInput`): the
 * token and the phase it was solved in, or `unavailable` when the browser could not run the
 * challenge. See docs/security.md "Bot challenges".
 */
export interface BotChallenge {
  token?: string;
  phase?: 'invisible' | 'visible';
  unavailable?: true;
}

/** The `bot_challenge_*` request fields of a challenge (none without one); body and query alike. */
function botChallengeFields(challenge: BotChallenge | undefined): {
  bot_challenge_token?: string;
  bot_challenge_phase?: 'invisible' | 'visible';
  bot_challenge_unavailable?: 'true';
} {
  if (!challenge) return {};
  if (challenge.unavailable) return { bot_challenge_unavailable: 'true' };
  return {
    ...(challenge.token ? { bot_challenge_token: challenge.token } : {}),
    ...(challenge.phase ? { bot_challenge_phase: challenge.phase } : {}),
  };
}

/** Options shared by the three apps. */
export interface ClientAppOptions {
  /** A UUID, or `internal`. */
  projectId: string;
  publishableClientKey?: string;
  /** Server origin (plus optional path prefix); requests go to `${baseUrl}/api/v1…`. Default: the page's origin. */
  baseUrl?: string;
  /** A Gatehouse mounted in this process (`createGatehouse` from `gatehouse-server/server`): calls go to its handler without a socket. Node only. */
  gatehouse?: MountedGatehouse;
  /** Custom transport; wins over `gatehouse` and `baseUrl`. */
  transport?: Transport;
  /** `'memory'`, `'cookie'` (browser), a custom store, `{headers}` (the `x-stack-auth` header), tokens, or null. Default: cookie in a browser, memory elsewhere. */
  tokenStore?: TokenStoreInit;
  /** Route overrides (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/components-page/stack-handler.tsx). */
  urls?: Partial<HandlerUrls>;
  /** Default: `window` in a browser, `none` elsewhere. */
  redirectMethod?: RedirectMethod;
  /** Only one app per identifier; a second with a different configuration throws (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/). */
  uniqueIdentifier?: string;
  /** Absolute origins redirects may target besides relative URLs (hosted pages: the project's trusted domains). */
  trustedOrigins?: string[];
  /** Injected clock, timers, randomness and fetch (tests). */
  environment?: Partial<SdkEnvironment>;
  extraRequestHeaders?: Record<string, string>;
  /**
   * The project's public settings (`GET /projects/current`) when the page already has them (the
   * hosted pages' HTML inlines them): held in the cache from the start, so the first render
   * needs no request for them.
   */
  initialProject?: WireClientProject;
}

/** What `getUser` does when nobody is signed in (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/components-page/stack-handler.tsx). */
export type OrOption = 'redirect' | 'throw' | 'return-null' | 'anonymous';

const PROJECT_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[089ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const registry = new Map<string, string>();
const USER_KEY = routePath('users.getCurrent');
/** A cached read of the signed-in user's list of something (`GET /teams?user_id=me`). */
const SIGNED_IN_USERS_LIST = /[?&]user_id=me(?:&|$)/;
const PROJECT_KEY = routePath('projects.getCurrent');

/** The operations that sign in with a JSON body and answer tokens. */
type SignInOperation = 'authPassword.signUp' | 'authPassword.signIn' | 'authOtp.signIn' | 'mfa.signIn' | 'passkeys.signIn';
/** Session-storage key of a pending multi-factor attempt code (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/). */
export const MFA_ATTEMPT_KEY = 'gatehouse-mfa-attempt-code';

interface InternalOptions {
  accessType: 'client' | 'server' | 'admin';
  secretServerKey?: string;
  superSecretAdminKey?: string;
  adminSession?: Session;
  fingerprint: Record<string, unknown>;
}

function isBrowser(): boolean {
  return (
    typeof (globalThis as { document?: unknown }).document !== 'undefined' &&
    typeof (globalThis as { location?: unknown }).location !== 'undefined'
  );
}

/**
 * The client-level app (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/): end-user sign-up / sign-in / sign-out, the current
 * user, and the project's public settings. Reads are cached (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/ timings); mutations refresh
 * what they change.
 */
export class ClientApp {
  readonly projectId: string;
  readonly urls: HandlerUrls;
  readonly env: SdkEnvironment;
  readonly redirectMethod: RedirectMethod;
  /** The user session, or null with `tokenStore: null`. */
  readonly session: Session | null;
  protected readonly api: ApiClient;
  /** The server URL for browser redirects (OAuth), or null with a custom transport. */
  readonly apiBaseUrl: string | null;
  private readonly publishableClientKey: string | undefined;
  /** Cached GET answers keyed by path and query. */
  readonly cache: AsyncCache<unknown>;
  private readonly listeners = new Set<() => void>();
  private lastRefreshToken: string | null;
  /** The object view the user, team… classes call through (used by the React bindings). */
  readonly core: AppCore;
  /** Origins (besides relative URLs) that redirects may go to: the project's trusted domains. */
  readonly trustedOrigins: readonly string[];

  constructor(options: ClientAppOptions, internal?: InternalOptions) {
    if (options.projectId !== 'internal' && !PROJECT_ID_RE.test(options.projectId))
      throw new GatehouseConfigError(`Invalid project ID: ${JSON.stringify(options.projectId)} (a UUID or "internal").`);
    const fingerprint = JSON.stringify({
      type: internal?.accessType ?? 'client',
      projectId: options.projectId,
      baseUrl: options.baseUrl ?? null,
      publishableClientKey: options.publishableClientKey ?? null,
      tokenStore: typeof options.tokenStore === 'string' ? options.tokenStore : options.tokenStore === null ? null : 'custom',
      urls: options.urls ?? null,
      ...internal?.fingerprint,
    });
    if (options.uniqueIdentifier !== undefined) {
      const existing = registry.get(options.uniqueIdentifier);
      if (existing !== undefined && existing !== fingerprint)
        throw new GatehouseConfigError(
          `An app with the unique identifier ${JSON.stringify(options.uniqueIdentifier)} already exists with a different configuration.`,
        );
      registry.set(options.uniqueIdentifier, fingerprint);
    }
    this.projectId = options.projectId;
    this.env = { ...defaultEnvironment(), ...options.environment };
    this.urls = resolveUrls(options.urls);
    this.trustedOrigins = (options.trustedOrigins ?? []).map((o) => o.replace(/\/+$/, ''));
    this.redirectMethod = options.redirectMethod ?? (isBrowser() ? 'window' : 'none');
    let transport = options.transport ?? (options.gatehouse ? inProcessTransport(options.gatehouse) : undefined);
    this.publishableClientKey = options.publishableClientKey;
    this.apiBaseUrl =
      (options.baseUrl ?? (globalThis as { location?: { origin?: string } }).location?.origin ?? null)?.replace(/\/+$/, '') ?? null;
    if (!transport) {
      const base = options.baseUrl ?? (globalThis as { location?: { origin?: string } }).location?.origin;
      if (!base) throw new GatehouseConfigError('No baseUrl: give the Gatehouse server URL, or a transport.');
      transport = httpTransport(base, this.env.fetch);
    }
    this.api = new ApiClient({
      projectId: options.projectId,
      accessType: internal?.accessType ?? 'client',
      publishableClientKey: options.publishableClientKey,
      secretServerKey: internal?.secretServerKey,
      superSecretAdminKey: internal?.superSecretAdminKey,
      adminSession: internal?.adminSession,
      transport,
      env: this.env,
      extraRequestHeaders: options.extraRequestHeaders,
    });
    const storeInit = options.tokenStore === undefined ? (isBrowser() ? 'cookie' : 'memory') : options.tokenStore;
    const store = resolveTokenStore(storeInit, options.projectId, this.env);
    this.session = store ? new Session(store, (rt) => this.api.refreshAccessToken(rt), this.env) : null;
    this.lastRefreshToken = store?.get().refreshToken ?? null;
    this.cache = new AsyncCache<unknown>((key) => this.fetchKey(key), this.env);
    if (options.initialProject) this.cache.prime(PROJECT_KEY, options.initialProject);
    // Nobody is signed in (no refresh token): known without a request, so `useUser` answers null
    // at once instead of suspending for a round trip (a hosted sign-in page renders its form first).
    if (!this.session || this.session.isSignedOut()) this.cache.prime(USER_KEY, null);
    const self = this;
    this.core = {
      accessType: internal?.accessType ?? 'client',
      op: ((id: OperationId, input?: object) => self.api.op(id, { ...input, session: self.session } as never)) as AppCore['op'],
      invalidate: (prefix) => self.invalidate(prefix),
      suggestAccessTokenExpired: () => self.session?.markAccessTokenExpired(),
      markSessionInvalid: () => {
        self.session?.markInvalid();
        self.checkSessionChange();
      },
      signOut: (options) => self.signOut(options),
    };
  }

  private async fetchKey(key: string): Promise<unknown> {
    if (key === USER_KEY) {
      if (!this.session || this.session.isSignedOut()) return null;
      try {
        return (await this.api.op('users.getCurrent', { session: this.session })) as WireUser;
      } catch (error) {
        if (isKnownErrorOf(error, ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_NOT_FOUND'])) return null;
        throw error;
      }
    }
    // A list of the signed-in user's things with nobody signed in is empty, known without asking
    // (sign-out refreshes the views still on screen; the server would answer 400 to `user_id=me`).
    if (SIGNED_IN_USERS_LIST.test(key) && (!this.session || this.session.isSignedOut())) return { items: [], is_paginated: false };
    return this.api.call('GET', key, { session: this.session });
  }

  /** Refetches cached reads whose key starts with `prefix` (every read when omitted). */
  async invalidate(prefix?: string): Promise<void> {
    this.checkSessionChange();
    await this.cache.refreshAll().then(() => undefined);
    void prefix; // every held entry is cheap to refetch and keeps related views (user ↔ teams) consistent
  }

  /** Subscribes to sign-in / sign-out (including another tab's, via the cookie store). */
  onSessionChange(listener: () => void): () => void {
    this.listeners.add(listener);
    const unsubscribeStore = this.session?.store.subscribe?.(() => this.checkSessionChange());
    return () => {
      this.listeners.delete(listener);
      unsubscribeStore?.();
    };
  }

  private checkSessionChange(): void {
    const current = this.session?.store.get().refreshToken ?? null;
    if (current === this.lastRefreshToken) return;
    this.lastRefreshToken = current;
    this.cache.invalidateAll();
    this.listeners.forEach((l) => l());
  }

  /**
   * True from `signOut()` until the next sign-in: the user chose to leave, so pages that need a
   * user (`useUser({or: 'redirect'})`) let sign-out's own redirect to after-sign-out happen
   * instead of sending the browser to sign-in.
   */
  get signedOutByUser(): boolean {
    return this.leaving;
  }
  private leaving = false;

  /** Stores new session tokens (sign-in, or a session handed over from elsewhere). */
  setTokens(tokens: Tokens): void {
    if (!this.session) throw new GatehouseConfigError('This app has no token store.');
    this.leaving = false;
    this.session.signIn(tokens);
    this.checkSessionChange();
  }

  /** The `x-stack-auth` header that hands this browser's session to the app's own server. */
  async getAuthHeaders(): Promise<Record<string, string>> {
    if (!this.session) return authHeaderFor({ accessToken: null, refreshToken: null });
    const accessToken = await this.session.getAccessToken();
    return authHeaderFor({ accessToken, refreshToken: this.session.tokens().refreshToken });
  }

  // ── Reads ───────────────────────────────────────────────────────────────────────────

  /** The project's public settings (`GET /projects/current`), cached. */
  async getProject(): Promise<WireClientProject> {
    return (await this.cache.get(PROJECT_KEY)) as WireClientProject;
  }

  /** The user object for a wire user (the React bindings map cached answers with it). */
  userFromWire(wire: WireUser): User {
    return this.makeUser(wire);
  }

  /** Builds the user object for a wire user (server apps return richer objects). */
  protected makeUser(wire: WireUser): User {
    return new User(this.core, wire);
  }

  /**
   * The signed-in user, or what `or` says when there is none (default `return-null`): `redirect`
   * goes to sign-in (with `after_auth_return_to`) and returns null, `throw` throws
   * UserNotSignedInError, `anonymous` signs up an anonymous user. Anonymous users count as
   * signed out unless `or: 'anonymous'` (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/).
   * Typed as Stack's `getUser`: with `or` `redirect`, `throw` or `anonymous` the answer is a user,
   * never null (a redirect that cannot leave the page — no browser — resolves to null at run time).
   */
  async getUser(options: { or: 'redirect' | 'throw' | 'anonymous' }): Promise<User>;
  async getUser(options?: { or?: OrOption }): Promise<User | null>;
  async getUser(options: { or?: OrOption } = {}): Promise<User | null> {
    this.checkSessionChange();
    const wire = (await this.cache.get(USER_KEY)) as WireUser | null;
    if (wire && (!wire.is_anonymous || options.or === 'anonymous')) return this.makeUser(wire);
    switch (options.or) {
      case 'throw':
        throw new UserNotSignedInError();
      case 'redirect':
        await this.redirectToSignIn();
        return null;
      case 'anonymous': {
        await this.signUpAnonymously();
        const fresh = (await this.cache.get(USER_KEY)) as WireUser | null;
        return fresh ? this.makeUser(fresh) : null;
      }
      default:
        return null;
    }
  }

  /** `POST /auth/anonymous/sign-up` (no body) and stores the tokens. */
  async signUpAnonymously(): Promise<void> {
    const res = await this.api.op('anonymous.signUp');
    this.setTokens({ accessToken: res.access_token, refreshToken: res.refresh_token });
  }

  // ── Sign-up, sign-in, sign-out ──────────────────────────────────────────────────────

  private async signInWith<K extends SignInOperation>(
    id: K,
    body: Operations[K]['input']['body'],
    options: { noRedirect?: boolean; signUp?: boolean },
  ): Promise<Result<WireSignInResponse>> {
    try {
      const res: WireSignInResponse = await this.api.op(id as SignInOperation, { body } as never);
      this.setTokens({ accessToken: res.access_token, refreshToken: res.refresh_token });
      if (!options.noRedirect) await this.redirectAfterAuth(options.signUp || res.is_new_user === true);
      return { status: 'ok', data: res };
    } catch (error) {
      if (error instanceof GatehouseKnownError && error.code === 'MULTI_FACTOR_AUTHENTICATION_REQUIRED') {
        const code = String(error.details.attempt_code ?? '');
        (globalThis as { sessionStorage?: Storage }).sessionStorage?.setItem(MFA_ATTEMPT_KEY, code);
        if (!options.noRedirect)
          await this.redirectToUrl(withAuthParams(this.urls.mfa, (globalThis as { location?: { search: string } }).location?.search ?? ''));
      }
      if (error instanceof GatehouseKnownError) return { status: 'error', error };
      throw error;
    }
  }

  /**
   * `POST /auth/password/sign-up` `{email, password, verification_callback_url}`; stores the
   * tokens and redirects to after-sign-up (or `after_auth_return_to`) unless `noRedirect`.
   * Expected errors (USER_EMAIL_ALREADY_EXISTS, PASSWORD_TOO_SHORT…) are returned, not thrown.
   */
  signUpWithCredential(options: {
    email: string;
    password: string;
    verificationCallbackUrl?: string;
    noVerificationCallback?: boolean;
    noRedirect?: boolean;
    botChallenge?: BotChallenge;
  }): Promise<Result<WireSignInResponse>> {
    const body: Operations['authPassword.signUp']['input']['body'] = {
      email: options.email,
      password: options.password,
      ...botChallengeFields(options.botChallenge),
    };
    if (!options.noVerificationCallback)
      body.verification_callback_url = options.verificationCallbackUrl ?? this.absoluteUrl(this.urls.emailVerification);
    return this.signInWith('authPassword.signUp', body, { noRedirect: options.noRedirect, signUp: true });
  }

  /** `POST /auth/password/sign-in` `{email, password}`; EMAIL_PASSWORD_MISMATCH is returned. MFA redirects to the mfa page. */
  signInWithCredential(options: {
    email: string;
    password: string;
    noRedirect?: boolean;
    botChallenge?: BotChallenge;
  }): Promise<Result<WireSignInResponse>> {
    return this.signInWith(
      'authPassword.signIn',
      { email: options.email, password: options.password, ...botChallengeFields(options.botChallenge) },
      options,
    );
  }

  /** `POST /auth/otp/send-sign-in-code` `{email, callback_url}` → `{nonce}`; BOT_CHALLENGE_* errors are returned. */
  async sendMagicLinkEmail(
    email: string,
    options: { callbackUrl?: string; botChallenge?: BotChallenge } = {},
  ): Promise<Result<{ nonce: string }>> {
    return this.result(() =>
      this.api.op('authOtp.sendSignInCode', {
        body: {
          email,
          callback_url: options.callbackUrl ?? this.absoluteUrl(this.urls.magicLinkCallback),
          ...botChallengeFields(options.botChallenge),
        },
      }),
    );
  }

  /** `POST /auth/otp/sign-in` `{code}` (magic link or the 6-character code + nonce). */
  signInWithMagicLink(code: string, options: { noRedirect?: boolean } = {}): Promise<Result<WireSignInResponse>> {
    return this.signInWith('authOtp.signIn', { code }, options);
  }

  /** `POST /auth/mfa/sign-in` `{type: 'totp', totp, code}`; the attempt code defaults to the stored one. */
  signInWithMfa(totp: string, attemptCode?: string, options: { noRedirect?: boolean } = {}): Promise<Result<WireSignInResponse>> {
    const code = attemptCode ?? (globalThis as { sessionStorage?: Storage }).sessionStorage?.getItem(MFA_ATTEMPT_KEY) ?? '';
    return this.signInWith('mfa.signIn', { type: 'totp', totp, code }, options);
  }

  /**
   * `POST /auth/mfa/sign-in` `{type: 'recovery_code', recovery_code, code}` (Gatehouse extension,
   * docs/mfa.md): completes the pending MFA sign-in with a single-use recovery code instead of a
   * TOTP. A wrong or spent code is returned as INVALID_TOTP_CODE.
   */
  signInWithRecoveryCode(
    recoveryCode: string,
    attemptCode?: string,
    options: { noRedirect?: boolean } = {},
  ): Promise<Result<WireSignInResponse>> {
    const code = attemptCode ?? (globalThis as { sessionStorage?: Storage }).sessionStorage?.getItem(MFA_ATTEMPT_KEY) ?? '';
    return this.signInWith('mfa.signIn', { type: 'recovery_code', recovery_code: recoveryCode, code }, options);
  }

  /** `POST /auth/password/send-reset-code` `{email, callback_url}`. */
  sendForgotPasswordEmail(email: string, options: { callbackUrl?: string } = {}): Promise<Result<unknown>> {
    return this.result(() =>
      this.api.op('authPassword.sendResetCode', {
        body: { email, callback_url: options.callbackUrl ?? this.absoluteUrl(this.urls.passwordReset) },
      }),
    );
  }

  /** `POST /auth/password/reset/check-code` `{code}`. */
  verifyPasswordResetCode(code: string): Promise<Result<unknown>> {
    return this.result(() => this.api.op('authPassword.checkResetCode', { body: { code } }));
  }

  /** `POST /auth/password/reset` `{code, password}`. */
  resetPassword(options: { code: string; password: string }): Promise<Result<unknown>> {
    return this.result(() => this.api.op('authPassword.reset', { body: { code: options.code, password: options.password } }));
  }

  /** `POST /contact-channels/verify` `{code}`; refreshes the cached user. */
  async verifyEmail(code: string): Promise<Result<unknown>> {
    const r = await this.result(() => this.api.op('contactChannels.verify', { body: { code }, session: this.session }));
    if (r.status === 'ok') await this.invalidate();
    return r;
  }

  /** `POST /team-invitations/accept/details` `{code}` → `{team_display_name}`. */
  getTeamInvitationDetails(code: string): Promise<Result<{ team_display_name: string }>> {
    return this.result(() => this.api.op('teamInvitations.details', { body: { code }, session: this.session }));
  }

  /** `POST /team-invitations/accept` `{code}`. */
  async acceptTeamInvitation(code: string): Promise<Result<unknown>> {
    const r = await this.result(() => this.api.op('teamInvitations.accept', { body: { code }, session: this.session }));
    if (r.status === 'ok') await this.invalidate();
    return r;
  }

  /** `POST /auth/cli/complete` `{login_code, refresh_token}`: confirms a command-line login with this session. */
  async confirmCliLogin(loginCode: string): Promise<Result<unknown>> {
    const refreshToken = this.session?.tokens().refreshToken;
    if (!refreshToken) throw new UserNotSignedInError();
    return this.result(() =>
      this.api.op('cliAuth.complete', { body: { login_code: loginCode, refresh_token: refreshToken }, session: this.session }),
    );
  }

  /**
   * Command-line login (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/): `POST /auth/cli` → `{polling_code, login_code}`, hands the
   * confirmation URL (`<appUrl><cli-auth-confirm>?login_code=…`) to `promptLink`, then polls
   * `POST /auth/cli/poll` every `waitTimeMillis` (default 2000 ms) until `success` (HTTP 201 with
   * the refresh token, which is stored when this app has a token store), `expired` or `used`.
   * After `maxAttempts` polls (default unlimited) it fails with a timeout error.
   */
  async promptCliLogin(options: {
    appUrl: string;
    promptLink?: (url: string) => void;
    expiresInMillis?: number;
    maxAttempts?: number;
    waitTimeMillis?: number;
  }): Promise<Result<{ refreshToken: string }>> {
    const init = await this.api.op('cliAuth.create', {
      body: options.expiresInMillis === undefined ? {} : { expires_in_millis: options.expiresInMillis },
    });
    const url = `${options.appUrl.replace(/\/+$/, '')}${this.urls.cliAuthConfirm}?login_code=${encodeURIComponent(init.login_code)}`;
    options.promptLink?.(url);
    const maxAttempts = options.maxAttempts ?? Infinity;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const poll = await this.api.op('cliAuth.poll', { body: { polling_code: init.polling_code } });
      if (poll.status === 'success' && poll.refresh_token) {
        if (this.session) this.setTokens({ accessToken: null, refreshToken: poll.refresh_token });
        return { status: 'ok', data: { refreshToken: poll.refresh_token } };
      }
      if (poll.status === 'expired') return { status: 'error', error: new GatehouseKnownError('CLI_AUTH_EXPIRED_ERROR') };
      if (poll.status === 'used') return { status: 'error', error: new GatehouseKnownError('CLI_AUTH_USED_ERROR') };
      if (poll.status !== 'waiting')
        return {
          status: 'error',
          error: new GatehouseKnownError('CLI_AUTH_ERROR', {}, `Unexpected CLI login status ${JSON.stringify(poll.status)}.`),
        };
      if (attempt < maxAttempts) await this.env.sleep(options.waitTimeMillis ?? 2000);
    }
    throw new GatehouseConfigError(`CLI login timed out after ${maxAttempts} attempts.`);
  }

  /**
   * `DELETE /auth/sessions/current` with the refresh token (a refresh-token error is tolerated),
   * then marks the session invalid and redirects to after-sign-out (unless `noRedirect`).
   */
  async signOut(options: { redirectUrl?: URL | string; noRedirect?: boolean } = {}): Promise<void> {
    if (this.session && !this.session.isSignedOut()) {
      try {
        await this.api.op('sessions.deleteCurrent', { body: {}, session: this.session });
      } catch (error) {
        if (!isKnownErrorOf(error, REFRESH_TOKEN_ERROR_CODES)) throw error;
      }
      this.leaving = !options.noRedirect;
      this.session.markInvalid();
      this.checkSessionChange();
    }
    if (!options.noRedirect) await this.redirectToUrl(String(options.redirectUrl ?? this.urls.afterSignOut));
  }

  /**
   * The query of an app flow that ends at the OAuth callback page (OAuth and SSO sign-in): a new
   * state and PKCE verifier (kept 1 hour in a cookie keyed by state), the S256 challenge, and the
   * callback, error and after-sign-in URLs.
   */
  private async appFlowQuery(returnTo?: string): Promise<Record<string, string>> {
    const state = randomUrlSafe();
    const verifier = pkceVerifier();
    storeOAuthVerifier(state, verifier);
    return {
      client_id: this.projectId,
      client_secret: this.publishableClientKey ?? '__stack_public_client__',
      redirect_uri: this.absoluteUrl(this.urls.oauthCallback),
      scope: 'legacy',
      state,
      grant_type: 'authorization_code',
      code_challenge: await pkceChallenge(verifier),
      code_challenge_method: 'S256',
      response_type: 'code',
      error_redirect_url: this.absoluteUrl(this.urls.error),
      after_callback_redirect_url: this.absoluteUrl(returnTo ?? this.afterAuthUrl(false)),
    };
  }

  /**
   * Home-realm discovery (`GET /auth/sso/discovery`, a Gatehouse extension): whether the project
   * has SSO connections (`ssoAvailable`: a sign-in page asks for the address first) and, with an
   * `email`, whether that address signs in through its team's identity provider (`sso`).
   */
  async discoverSso(email?: string): Promise<{ ssoAvailable: boolean; sso: boolean }> {
    const res = (await this.api.op('sso.discover', { query: email === undefined ? {} : { email } })) as {
      sso_available: boolean;
      sso: boolean;
    };
    return { ssoAvailable: res.sso_available, sso: res.sso };
  }

  /**
   * Starts a sign-in through the identity provider of the team that owns the address's domain
   * (browser; a Gatehouse extension): `GET /auth/sso/authorize` with the OAuth flow's query and
   * `email`. The IdP returns through Gatehouse to the OAuth callback page, which finishes as after
   * an OAuth sign-in.
   */
  async signInWithSso(options: { email: string; returnTo?: string }): Promise<void> {
    if (!this.apiBaseUrl) throw new GatehouseConfigError('SSO sign-in needs a baseUrl.');
    const url = new URL(`${this.apiBaseUrl}/api/v1${routePath('sso.authorize')}`);
    for (const [k, val] of Object.entries({ ...(await this.appFlowQuery(options.returnTo)), email: options.email }))
      url.searchParams.set(k, val);
    (globalThis as { location?: { assign(u: string): void } }).location?.assign(url.toString());
    await this.env.sleep(2000);
  }

  /**
   * Starts OAuth sign-in (browser): a PKCE verifier kept 1 hour in a cookie keyed by state, then
   * `GET /auth/oauth/authorize/{provider}` with the query parameters upstream's SDK sends. With a
   * `botChallenge` the authorize call is made first with `stack_response_mode=json` (as upstream's
   * SDK does in its challenge flow), so a refusal (BOT_CHALLENGE_REQUIRED, BOT_CHALLENGE_FAILED) is
   * thrown as a GatehouseKnownError instead of shown as a page; then the browser goes to the provider.
   */
  async signInWithOAuth(
    provider: string,
    options: { type?: 'authenticate' | 'link'; returnTo?: string; botChallenge?: BotChallenge } = {},
  ): Promise<void> {
    if (!this.apiBaseUrl) throw new GatehouseConfigError('OAuth sign-in needs a baseUrl.');
    const url = new URL(`${this.apiBaseUrl}/api/v1${routePath('authOauth.authorize', { provider_id: provider })}`);
    const params: Record<string, string> = { ...(await this.appFlowQuery(options.returnTo)), type: options.type ?? 'authenticate' };
    if (options.type === 'link') params.token = (await this.session?.getAccessToken()) ?? '';
    for (const [k, val] of Object.entries({ ...params, ...botChallengeFields(options.botChallenge) })) url.searchParams.set(k, String(val));
    let target = url.toString();
    if (options.botChallenge) {
      url.searchParams.set('stack_response_mode', 'json');
      const res = await this.api.op('authOauth.authorize', {
        params: { provider_id: provider },
        query: Object.fromEntries(url.searchParams) as never,
      });
      target = (res as { location: string }).location;
    }
    (globalThis as { location?: { assign(u: string): void } }).location?.assign(target);
    await this.env.sleep(2000);
  }

  /**
   * Finishes OAuth on the callback page: reads `code` and `state`, removes them from the address
   * bar, exchanges the code (`POST /auth/oauth/token`, authorization_code grant with the PKCE
   * verifier), stores the tokens and redirects.
   */
  async callOAuthCallback(): Promise<Result<WireSignInResponse>> {
    const loc = (globalThis as { location?: Location }).location;
    if (!loc) throw new GatehouseConfigError('The OAuth callback needs a browser.');
    const url = new URL(loc.href);
    const code = url.searchParams.get('code');
    const state = url.searchParams.get('state');
    if (!code || !state) throw new GatehouseConfigError('The OAuth callback URL is missing code or state.');
    url.searchParams.delete('code');
    url.searchParams.delete('state');
    (globalThis as { history?: History }).history?.replaceState(null, '', url.pathname + url.search + url.hash);
    const verifier = takeOAuthVerifier(state) ?? '';
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: this.absoluteUrl(this.urls.oauthCallback),
      client_id: this.projectId,
      client_secret: this.publishableClientKey ?? '__stack_public_client__',
    });
    try {
      const res = await this.api.callForm<WireSignInResponse & { after_callback_redirect_url?: string }>('authOauth.token', form);
      this.setTokens({ accessToken: res.access_token, refreshToken: res.refresh_token });
      const target = res.after_callback_redirect_url;
      if (target) {
        const relative = target.startsWith('http') && new URL(target).origin === loc.origin ? target.slice(loc.origin.length) : target;
        await this.redirectToUrl(relative);
      } else {
        await this.redirectAfterAuth(res.is_new_user === true);
      }
      return { status: 'ok', data: res };
    } catch (error) {
      if (error instanceof GatehouseKnownError) return { status: 'error', error };
      throw error;
    }
  }

  /**
   * Passkey sign-in (WebAuthn): `POST /auth/passkey/initiate-passkey-authentication` → options,
   * the browser ceremony (`navigator.credentials.get`, RP id = this page's hostname), then
   * `POST /auth/passkey/sign-in` `{authentication_response, code}`. A failed or cancelled ceremony
   * is returned as PASSKEY_WEBAUTHN_ERROR `{message, code: <DOMException name>}`; a TOTP user is
   * sent to the MFA page like any sign-in.
   */
  async signInWithPasskey(options: { noRedirect?: boolean } = {}): Promise<Result<WireSignInResponse>> {
    assertWebAuthn();
    const init = await this.result(() => this.api.op('passkeys.initiateAuthentication', { body: {} }));
    if (init.status === 'error') return init;
    const PKC = (globalThis as any).PublicKeyCredential;
    const publicKey = PKC.parseRequestOptionsFromJSON(fixRpId(init.data.options_json, 'rpId'));
    const credential = await webAuthnCeremony<{ toJSON(): Operations['passkeys.signIn']['input']['body']['authentication_response'] }>(() =>
      (globalThis as any).navigator.credentials.get({ publicKey }),
    );
    if (credential.status === 'error') return credential;
    return this.signInWith('passkeys.signIn', { authentication_response: credential.data.toJSON(), code: init.data.code }, options);
  }

  /**
   * Registers a passkey for the signed-in user: initiate, the browser ceremony
   * (`navigator.credentials.create`), then `POST /auth/passkey/register` → `{user_handle}`.
   * Ceremony failures are PASSKEY_WEBAUTHN_ERROR results (e.g. `InvalidStateError` when this
   * authenticator already holds a passkey for the user).
   */
  async registerPasskey(): Promise<Result<unknown>> {
    assertWebAuthn();
    const init = await this.result(() => this.api.op('passkeys.initiateRegistration', { body: {}, session: this.session }));
    if (init.status === 'error') return init;
    const PKC = (globalThis as any).PublicKeyCredential;
    const publicKey = PKC.parseCreationOptionsFromJSON(fixRpId(init.data.options_json, 'rp'));
    const credential = await webAuthnCeremony<{ toJSON(): Operations['passkeys.register']['input']['body']['credential'] }>(() =>
      (globalThis as any).navigator.credentials.create({ publicKey }),
    );
    if (credential.status === 'error') return credential;
    const registered = await this.result(() =>
      this.api.op('passkeys.register', { body: { credential: credential.data.toJSON(), code: init.data.code }, session: this.session }),
    );
    if (registered.status === 'ok') {
      await this.invalidate(routePath('passkeys.list'));
      await this.invalidate(routePath('users.getCurrent'));
    }
    return registered;
  }

  // ── Redirects ───────────────────────────────────────────────────────────────────────

  /** Navigates to a relative URL with the app's redirect method (throws for untrusted targets). */
  async redirectToUrl(url: string): Promise<void> {
    await performRedirect(this.redirectMethod, url, this.env, this.trustedOrigins);
  }

  private currentLocation(): string {
    const loc = (globalThis as { location?: { pathname: string; search: string; hash: string } }).location;
    return loc ? `${loc.pathname}${loc.search}${loc.hash}` : '/';
  }

  /** The sign-in URL with `after_auth_return_to` holding the current relative location. */
  signInUrlWithReturn(): string {
    return withReturnTo(this.urls.signIn, this.currentLocation());
  }

  /** Goes to sign-in, carrying `after_auth_return_to`. */
  redirectToSignIn(): Promise<void> {
    return this.redirectToUrl(this.signInUrlWithReturn());
  }

  /** The sign-up URL with `after_auth_return_to` holding the current relative location. */
  signUpUrlWithReturn(): string {
    return withReturnTo(this.urls.signUp, this.currentLocation());
  }

  /** Goes to sign-up, carrying `after_auth_return_to`. */
  redirectToSignUp(): Promise<void> {
    return this.redirectToUrl(this.signUpUrlWithReturn());
  }

  /** Goes to account settings. */
  redirectToAccountSettings(): Promise<void> {
    return this.redirectToUrl(this.urls.accountSettings);
  }

  /**
   * Where to go after sign-in or sign-up: the page's `after_auth_return_to` when present and
   * relative, else after-sign-up (new users) or after-sign-in.
   */
  afterAuthUrl(isNewUser: boolean, search = (globalThis as { location?: { search: string } }).location?.search ?? ''): string {
    return returnToFrom(search, this.trustedOrigins) ?? (isNewUser ? this.urls.afterSignUp : this.urls.afterSignIn);
  }

  /**
   * Redirects to `afterAuthUrl`; or, when the page was opened for Stack's cross-domain hand-off
   * (sdk/cross-domain.ts: an app on another origin asked for the session), gets a one-time code
   * from `POST /auth/oauth/cross-domain/authorize` and goes to the app's callback URL the server
   * answers (it checks that URL against the project's trusted domains).
   */
  async redirectAfterAuth(isNewUser: boolean): Promise<void> {
    const href = (globalThis as { location?: { href?: string } }).location?.href;
    const handoff = href && this.session ? crossDomainHandoffFrom(href) : null;
    if (handoff) {
      const res = await this.api.op('authOauth.crossDomainAuthorize', {
        body: {
          redirect_uri: handoff.redirectUri,
          state: handoff.state,
          code_challenge: handoff.codeChallenge,
          code_challenge_method: 'S256',
          after_callback_redirect_url: handoff.afterCallbackRedirectUrl,
        },
        session: this.session,
      });
      await performRedirect(this.redirectMethod, res.redirect_url, this.env, [new URL(res.redirect_url).origin]);
      return;
    }
    return this.redirectToUrl(this.afterAuthUrl(isNewUser));
  }

  /** An absolute URL for a relative route (callback URLs in emails); relative outside a browser. */
  absoluteUrl(relative: string): string {
    const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
    return origin ? new URL(relative, origin).toString() : relative;
  }

  private async result<T>(fn: () => Promise<T>): Promise<Result<T>> {
    try {
      return { status: 'ok', data: await fn() };
    } catch (error) {
      if (error instanceof GatehouseKnownError) return { status: 'error', error };
      throw error;
    }
  }
}
