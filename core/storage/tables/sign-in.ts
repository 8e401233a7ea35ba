/**
 * Table types (see core/storage/tables.ts for the conventions): Signing in: sessions, one-time codes, second factors, passkeys, CLI login, OAuth sign-in, throttling and sign-up rules.
 */
import type { Bool } from './columns.ts';

export interface RefreshTokensTable {
  id: string;
  project_id: string;
  user_id: string;
  token_hash: string;
  created_at: number;
  last_used_at: number;
  expires_at: number | null;
  is_impersonation: Bool;
  /** The `User-Agent` of the request that created or last refreshed the session (≤ 512 chars), or null. */
  user_agent: string | null;
  /** JSON place of the last use from the operator's GeoIP database (core/sessions/place.ts), or null. */
  last_used_place: string | null;
}

/** Sessions revoked recently (core/sessions/revocations.ts); rows outlive the longest access token, then are pruned. */
export interface RevokedSessionsTable {
  refresh_token_id: string;
  project_id: string;
  /** Real (wall-clock) epoch ms of the revocation. */
  revoked_at: number;
}

/** One emailed code (core/verification-codes); `code_hash`/`nonce_hash` are SHA-256 of the code and of `code.slice(6)`. */
export interface VerificationCodesTable {
  id: string;
  project_id: string;
  /** What the code is for: `otp_sign_in`, `email_verification`, `password_reset`, `team_invitation`, … */
  purpose: string;
  code_hash: string;
  nonce_hash: string;
  /** A purpose-specific id to list codes by (e.g. the team of an invitation). */
  subject_id: string | null;
  user_id: string | null;
  email: string | null;
  /** JSON payload of the purpose. */
  data: string;
  attempt_count: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** The last TOTP time step (RFC 6238 counter) a user spent; codes of that step or earlier are refused. */
export interface TotpUsedStepsTable {
  user_id: string;
  project_id: string;
  last_step: number;
}

/** One single-use MFA recovery code, stored as SHA-256 of the normalized code (Gatehouse extension). */
export interface MfaRecoveryCodesTable {
  id: string;
  project_id: string;
  user_id: string;
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

/** A CLI login attempt (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/). Both codes stored hashed; no token is stored. */
export interface CliAuthAttemptsTable {
  id: string;
  project_id: string;
  polling_code_hash: string;
  login_code_hash: string;
  /** The session (refresh-token row id) of the anonymous user the CLI started with, if any. */
  anon_refresh_token_id: string | null;
  /** The user who confirmed the login code; null while pending. */
  user_id: string | null;
  created_at: number;
  expires_at: number;
  completed_at: number | null;
  used_at: number | null;
}

/** A user's WebAuthn credential (core/passkeys). Binary values are base64url text. */
export interface PasskeysTable {
  id: string;
  project_id: string;
  user_id: string;
  /** The credential id, base64url (as the browser reports it). */
  credential_id: string;
  /** COSE public key, base64url. */
  public_key: string;
  /** Signature counter last seen (WebAuthn L3 §6.1.1). */
  counter: number;
  /** JSON array of authenticator transports. */
  transports: string;
  /** `singleDevice` or `multiDevice`. */
  device_type: string;
  backed_up: Bool;
  created_at: number;
  last_used_at: number | null;
}

/** An OAuth flow in flight towards a provider (migration 0013). */
export interface OAuthFlowsTable {
  state_hash: string;
  project_id: string;
  provider_id: string;
  sealed_data: string;
  created_at: number;
  expires_at: number;
}

/** A Gatehouse authorization code for the app's redirect_uri (migration 0013). */
export interface OAuthAuthorizationCodesTable {
  code_hash: string;
  project_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
  is_new_user: Bool;
  /** `sign_in` or `handoff` (cross-domain). */
  kind: string;
  after_callback_redirect_url: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A provider account linked to a user (migration 0013). */
export interface OAuthAccountsTable {
  id: string;
  project_id: string;
  user_id: string;
  provider_id: string;
  provider_account_id: string;
  email: string | null;
  allow_sign_in: Bool;
  allow_connected_accounts: Bool;
  created_at: number;
}

/** A provider token, encrypted (migration 0013). `kind` is `refresh` or `access`. */
export interface OAuthTokensTable {
  id: string;
  project_id: string;
  oauth_account_id: string;
  kind: string;
  sealed_token: string;
  scopes: string;
  expires_at: number | null;
  is_valid: Bool;
  created_at: number;
}

/** Throttling state (core/throttle): a token bucket, or a failure counter, per hashed key. */
export interface ThrottleBucketsTable {
  /** SHA-256 hex of `<project>:<rule>:<subject>`; subjects (addresses, emails) are never stored in clear. */
  key: string;
  /** Tokens left in a bucket; consecutive failures for a failure counter. */
  tokens: number;
  /** Epoch ms of the last refill (bucket), or when the next attempt is allowed (failure counter). */
  updated_at: number;
  /** 1 when the last take succeeded. */
  allowed: number;
}

/** Failed sign-ins (migration 0018): never the address tried or the client's network address. */
export interface SignInFailuresTable {
  id: string;
  project_id: string;
  /** The user whose sign-in failed, or null when the address matched no user with that factor. */
  user_id: string | null;
  /** `password` or `mfa`. */
  factor: string;
  /** `wrong_password`, `unknown_email`, `no_password`, `wrong_code`. */
  reason: string;
  created_at: number;
}

/** A project branch's Cloudflare Turnstile secret key, sealed (core/bot-challenge/settings.ts). */
export interface BotChallengeSecretsTable {
  project_id: string;
  branch_id: string;
  turnstile_secret_sealed: string;
  /** The key's first two and last four characters (`0x…AbCd`), for the dashboard. */
  turnstile_secret_hint: string;
  updated_at: number;
}

/** Sign-up rule triggers (migration 0019): how often a rule matched, per hour. */
export interface SignUpRuleTriggerCountsTable {
  project_id: string;
  branch_id: string;
  rule_id: string;
  /** The rule's action when it matched: allow, reject, restrict or log. */
  action: string;
  /** Epoch ms of the start of the UTC hour. */
  hour_start: number;
  count: number;
}

/** What the risk scores remember of a sign-up (migration 0019): hashes only, never the address or email. */
export interface SignUpFactsTable {
  user_id: string;
  project_id: string;
  signed_up_at: number;
  /** SHA-256 hex of `<project>:<client address>`; null for server-side or unknown addresses. */
  address_hash: string | null;
  /** SHA-256 hex of `<project>:<email base>` (see core/sign-up-rules/risk.ts); null without email. */
  email_base_hash: string | null;
}
