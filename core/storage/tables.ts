/**
 * Table types of the one logical schema shared by every adapter.
 *
 * Conventions: ids are UUID v4 text; times are epoch-millisecond
 * integers (`_at`); booleans are 0/1 integers on both dialects, read and written as JS booleans
 * (the adapters convert, adapters/boolean-columns.ts); JSON is stored as text; secrets are
 * stored hashed (`_hash`); every tenant row carries `project_id`.
 */
export interface Database {
  server_settings: ServerSettingsTable;
  ai_chat_threads: AiChatThreadsTable;
  ai_chat_messages: AiChatMessagesTable;
  ai_token_usage: AiTokenUsageTable;
  sign_in_failures: SignInFailuresTable;
  projects: ProjectsTable;
  config_overrides: ConfigOverridesTable;
  data_vault_entries: DataVaultEntriesTable;
  sign_up_rule_trigger_counts: SignUpRuleTriggerCountsTable;
  sign_up_facts: SignUpFactsTable;
  internal_api_keys: InternalApiKeysTable;
  users: UsersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  refresh_tokens: RefreshTokensTable;
  user_active_days: UserActiveDaysTable;
  permission_definitions: PermissionDefinitionsTable;
  permission_edges: PermissionEdgesTable;
  permission_closure: PermissionClosureTable;
  team_permission_grants: TeamPermissionGrantsTable;
  project_permission_grants: ProjectPermissionGrantsTable;
  api_keys: ApiKeysTable;
  revoked_sessions: RevokedSessionsTable;
  throttle_buckets: ThrottleBucketsTable;
  verification_codes: VerificationCodesTable;
  emails: EmailsTable;
  contact_channels: ContactChannelsTable;
  notification_preferences: NotificationPreferencesTable;
  email_themes: EmailSourcesTable;
  email_templates: EmailSourcesTable;
  email_drafts: EmailSourcesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_messages: WebhookMessagesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  // mfa, cli-auth (0006)
  totp_used_steps: TotpUsedStepsTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  cli_auth_attempts: CliAuthAttemptsTable;
  // passkeys (0007)
  passkeys: PasskeysTable;
  oauth_flows: OAuthFlowsTable;
  oauth_authorization_codes: OAuthAuthorizationCodesTable;
  oauth_accounts: OAuthAccountsTable;
  oauth_tokens: OAuthTokensTable;
  // images (0011)
  stored_images: StoredImagesTable;
  // payments (0016)
  payment_item_changes: PaymentItemChangesTable;
  payment_item_counters: PaymentItemCountersTable;
  payment_purchases: PaymentPurchasesTable;
  payment_purchase_codes: PaymentPurchaseCodesTable;
  payment_stripe_accounts: PaymentStripeAccountsTable;
  payment_stripe_events: PaymentStripeEventsTable;
  bot_challenge_secrets: BotChallengeSecretsTable;
  team_domains: TeamDomainsTable;
  scim_tokens: ScimTokensTable;
  scim_users: ScimUsersTable;
  scim_groups: ScimGroupsTable;
  scim_group_members: ScimGroupMembersTable;
  sso_connections: SsoConnectionsTable;
  sso_used_assertions: SsoUsedAssertionsTable;
  oauth_provider_clients: OAuthProviderClientsTable;
  oauth_provider_payloads: OAuthProviderPayloadsTable;
  // payment invoices (0023)
  payment_invoices: PaymentInvoicesTable;
  email_capacity_boosts: EmailCapacityBoostsTable;
  // payments' Stripe outbox (0024)
  payment_stripe_outbox: PaymentStripeOutboxTable;
}

/** An image uploaded as a base64 `data:` URL, served at `/images/{id}` (core/images). */
export interface StoredImagesTable {
  id: string;
  project_id: string;
  /** One of the allowed raster types (`image/png`, `image/jpeg`, `image/gif`, `image/webp`). */
  content_type: string;
  data_base64: string;
  byte_length: number;
  created_at: number;
}

/** A user was active on `day` (UTC `YYYY-MM-DD`). */
export interface UserActiveDaysTable {
  project_id: string;
  day: string;
  user_id: string;
}

/**
 * A flag: stored as a 0/1 `integer` on both dialects, a boolean above the adapters, which convert
 * both ways by column name (adapters/boolean-columns.ts lists every `Bool` column).
 */
export type Bool = boolean;

export interface ServerSettingsTable {
  key: string;
  value: string;
}

export interface ProjectsTable {
  id: string;
  display_name: string;
  description: string;
  created_at: number;
  is_production_mode: Bool;
  is_development_environment: Bool;
  owner_team_id: string | null;
  logo_url: string | null;
  logo_full_url: string | null;
  logo_dark_mode_url: string | null;
  logo_full_dark_mode_url: string | null;
  /** JSON of the project config (core/config). */
  config: string;
}

export interface InternalApiKeysTable {
  id: string;
  project_id: string;
  description: string;
  created_at: number;
  expires_at: number | null;
  manually_revoked_at: number | null;
  publishable_client_key_hash: string | null;
  publishable_client_key_last_four: string | null;
  secret_server_key_hash: string | null;
  secret_server_key_last_four: string | null;
  super_secret_admin_key_hash: string | null;
  super_secret_admin_key_last_four: string | null;
}

export interface UsersTable {
  id: string;
  project_id: string;
  display_name: string | null;
  /** Normalized (trimmed, lowercased) primary email. */
  primary_email: string | null;
  primary_email_verified: Bool;
  primary_email_auth_enabled: Bool;
  /**
   * Id of the primary email's contact channel; null means the id derived from the user id
   * (core/contact-channels/channels.ts). Set whenever the primary email changes.
   */
  primary_email_channel_id: string | null;
  profile_image_url: string | null;
  signed_up_at: number;
  last_active_at: number | null;
  client_metadata: string | null;
  client_read_only_metadata: string | null;
  server_metadata: string | null;
  /** argon2id (PHC string) or an imported hash (core/auth-password/hash-formats.ts); null when the user has no password. */
  password_hash: string | null;
  otp_auth_enabled: Bool;
  passkey_auth_enabled: Bool;
  totp_secret_base64: string | null;
  is_anonymous: Bool;
  selected_team_id: string | null;
  restricted_by_admin: Bool;
  restricted_by_admin_reason: string | null;
  restricted_by_admin_private_details: string | null;
  country_code: string | null;
  /** BCP 47 language of the user's emails (hosted pages' choice), or null: the project's default. */
  locale: string | null;
  /** JSON `{sign_up: {bot, free_trial_abuse}}`. */
  risk_scores: string;
}

export interface TeamsTable {
  id: string;
  project_id: string;
  display_name: string;
  profile_image_url: string | null;
  client_metadata: string | null;
  client_read_only_metadata: string | null;
  server_metadata: string | null;
  created_at: number;
}

export interface TeamMembersTable {
  project_id: string;
  team_id: string;
  user_id: string;
  display_name: string | null;
  profile_image_url: string | null;
  created_at: number;
}

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

/** The email outbox and sent-email log (core/emails). */
export interface EmailsTable {
  id: string;
  project_id: string;
  user_id: string | null;
  to_email: string;
  subject: string;
  html: string;
  text: string | null;
  notification_category: string | null;
  /** `shared` (GATEHOUSE_SMTP_URL), `standard` (the project's SMTP) or `outbox` (kept, never sent). */
  transport: string;
  /** `pending`, `sent`, `failed` or `outbox`. */
  status: string;
  attempt_count: number;
  next_attempt_at: number;
  /** Lease of the worker delivering it (epoch ms), so several processes can share the table. */
  locked_until: number | null;
  error: string | null;
  created_at: number;
  sent_at: number | null;
  /**
   * The live subject, HTML and text of an email that carries a code or sign-in link, sealed
   * (core/emails/sealed-body.ts) while it may still be delivered or read from the built-in
   * outbox; `subject`/`html`/`text` hold the redacted form. Null once delivered or expired.
   */
  sealed_body: string | null;
  /** JSON object of extra headers (RFC 8058 List-Unsubscribe), or null. */
  headers: string | null;
  /** `user-primary-email` when addressed to the user's primary email (`send-email`), else null. */
  recipient: string | null;
}

/** A user's non-primary contact channel; the primary email lives in `users.primary_email*`. */
export interface ContactChannelsTable {
  id: string;
  project_id: string;
  user_id: string;
  type: string;
  value: string;
  is_verified: Bool;
  used_for_auth: Bool;
  created_at: number;
}

export interface NotificationPreferencesTable {
  project_id: string;
  user_id: string;
  category_id: string;
  enabled: Bool;
}

/** Email themes, templates and drafts: TSX source per project (defaults are built in, rows override them). */
export interface EmailSourcesTable {
  project_id: string;
  id: string;
  display_name: string;
  tsx_source: string;
  theme_id: string | null;
  sent_at: number | null;
  created_at: number;
}

/** A custom permission definition (core/permissions); `scope` is `team` or `project`. */
export interface PermissionDefinitionsTable {
  project_id: string;
  id: string;
  scope: string;
  description: string | null;
  created_at: number;
}

/** `parent_id` contains `child_id` (core/permissions). */
export interface PermissionEdgesTable {
  project_id: string;
  parent_id: string;
  child_id: string;
}

/** Materialized reflexive-transitive closure of permission_edges (core/permissions). */
export interface PermissionClosureTable {
  project_id: string;
  scope: string;
  ancestor_id: string;
  descendant_id: string;
}

export interface TeamPermissionGrantsTable {
  project_id: string;
  team_id: string;
  user_id: string;
  permission_id: string;
  created_at: number;
}

export interface ProjectPermissionGrantsTable {
  project_id: string;
  user_id: string;
  permission_id: string;
  created_at: number;
}

/** User and team API keys (core/api-keys); the secret is stored as its SHA-256. */
export interface ApiKeysTable {
  id: string;
  project_id: string;
  /** `user` or `team`. */
  type: string;
  user_id: string | null;
  team_id: string | null;
  description: string;
  is_public: Bool;
  secret_hash: string;
  last_four: string;
  created_at: number;
  expires_at: number | null;
  manually_revoked_at: number | null;
}

/** A project's webhook endpoint (core/webhooks). The signing secret is sealed with a server-derived key. */
export interface WebhookEndpointsTable {
  id: string;
  project_id: string;
  url: string;
  description: string;
  /** JSON array of subscribed event types, or null for every type. */
  event_types: string | null;
  enabled: Bool;
  /** `whsec_…` sealed with AES-256-GCM (core/lib/secret-box.ts). */
  secret_sealed: string;
  disabled_reason: string | null;
  /** Deliveries that failed for good in a row; reset by any success. */
  consecutive_failures: number;
  created_at: number;
  updated_at: number;
}

/** One event, written in the transaction of the change; its id is the `webhook-id` / `svix-id`. */
export interface WebhookMessagesTable {
  id: string;
  project_id: string;
  event_type: string;
  /** JSON `{type, data}` exactly as sent. */
  payload: string;
  created_at: number;
}

/** One message to one endpoint: `pending` (with its next due time), `succeeded` or `failed`. */
export interface WebhookDeliveriesTable {
  id: string;
  project_id: string;
  endpoint_id: string;
  message_id: string;
  status: string;
  attempt_count: number;
  next_attempt_at: number | null;
  /** Lease of the process sending it (epoch ms). */
  locked_until: number | null;
  created_at: number;
  updated_at: number;
}

/** The log of every delivery attempt. */
export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  project_id: string;
  attempted_at: number;
  status_code: number | null;
  response_excerpt: string | null;
  duration_ms: number;
  error: string | null;
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

/** Sessions revoked recently (core/sessions/revocations.ts); rows outlive the longest access token, then are pruned. */
export interface RevokedSessionsTable {
  refresh_token_id: string;
  project_id: string;
  /** Real (wall-clock) epoch ms of the revocation. */
  revoked_at: number;
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

/** Config overrides (migration 0014): one per project and level; branch_id '' at the project level. */
export interface ConfigOverridesTable {
  project_id: string;
  level: string;
  branch_id: string;
  config: string;
  source: string | null;
  updated_at: number;
}

/** Data vault entries (migration 0014), values sealed at rest. */
export interface DataVaultEntriesTable {
  project_id: string;
  store_id: string;
  hashed_key: string;
  sealed_value: string;
  key_id: string;
  created_at: number;
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

/** One change of an item's quantity for a customer (core/payments): manual, or granted by a purchase. */
export interface PaymentItemChangesTable {
  id: string;
  project_id: string;
  branch_id: string;
  /** `user`, `team` or `custom`. */
  customer_type: string;
  customer_id: string;
  item_id: string;
  delta: number;
  description: string | null;
  /** Epoch ms after which the change no longer counts; null: never. */
  expires_at: number | null;
  /** `manual` (update-quantity), `grant` (a purchase's included items) or `renewal`. */
  kind: string;
  purchase_id: string | null;
  created_at: number;
}

/** Serializes writers of one customer's item balance: each change bumps `version` first. */
export interface PaymentItemCountersTable {
  project_id: string;
  branch_id: string;
  customer_type: string;
  customer_id: string;
  item_id: string;
  version: number;
  updated_at: number;
}

/** A purchase of a product: one-off or a subscription (core/payments). */
export interface PaymentPurchasesTable {
  id: string;
  project_id: string;
  branch_id: string;
  customer_type: string;
  customer_id: string;
  /** Null for an inline product. */
  product_id: string | null;
  price_id: string | null;
  /** JSON snapshot of the product as configured when bought. */
  product: string;
  quantity: number;
  /** `one_time` or `subscription`. */
  kind: string;
  /** `active`, `trialing`, `canceled`, `refunded`, `past_due` or `incomplete`. */
  status: string;
  test_mode: Bool;
  /** `PURCHASE_PAGE`, `TEST_MODE` or `API_GRANT`. */
  creation_source: string;
  currency: string | null;
  /** Price per unit in the currency's minor unit, read from config (never from the client). */
  unit_amount_minor: number | null;
  stripe_customer_id: string | null;
  stripe_checkout_session_id: string | null;
  stripe_subscription_id: string | null;
  stripe_payment_intent_id: string | null;
  current_period_start: number | null;
  current_period_end: number | null;
  cancel_at_period_end: Bool;
  refunded_at: number | null;
  /** Units a refund revoked (0: money only); null while not refunded (migration 0023). */
  refunded_quantity?: number | null;
  created_at: number;
  updated_at: number;
}

/** A purchase code behind the hosted purchase page; the code is stored hashed. */
export interface PaymentPurchaseCodesTable {
  code_hash: string;
  project_id: string;
  branch_id: string;
  customer_type: string;
  customer_id: string;
  product_id: string | null;
  product: string;
  return_url: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** The project's own Stripe account (per branch): keys sealed with a server-derived key. */
export interface PaymentStripeAccountsTable {
  project_id: string;
  branch_id: string;
  secret_key_sealed: string;
  /** The key's mode and last four characters (`sk_test_…4242`), for the dashboard. */
  secret_key_hint: string;
  webhook_secret_sealed: string | null;
  account_id: string | null;
  created_at: number;
  updated_at: number;
}

/** A Stripe event already applied (webhook idempotency per event id). */
export interface PaymentStripeEventsTable {
  project_id: string;
  event_id: string;
  type: string;
  received_at: number;
}

/** Assistant threads (migration 0018): one per project and client-chosen id, owned by one owner. */
export interface AiChatThreadsTable {
  project_id: string;
  id: string;
  /** The owner's internal-project user id, or `key:<project id>` for admin-key callers. */
  owner: string;
  title: string;
  created_at: number;
  updated_at: number;
}

/** Assistant thread messages (migration 0018), ordered by `seq`; `content` is JSON text. */
export interface AiChatMessagesTable {
  project_id: string;
  thread_id: string;
  seq: number;
  content: string;
  created_at: number;
}

/** Model tokens spent per project and UTC day (`YYYY-MM-DD`), for the assistant's budget. */
export interface AiTokenUsageTable {
  project_id: string;
  day: string;
  tokens: number;
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

/** A domain a team claims (core/team-domains); `verified_domain` is set only while verified. */
export interface TeamDomainsTable {
  project_id: string;
  team_id: string;
  /** Lowercase, ASCII (punycode), no trailing dot. */
  domain: string;
  /** The value the `_gatehouse-challenge.<domain>` TXT record must hold. */
  challenge_value: string;
  verified_domain: string | null;
  verified_at: number | null;
  sso_enforced: Bool;
  created_at: number;
}

/** A team's SCIM bearer token, stored hashed (core/scim). */
export interface ScimTokensTable {
  id: string;
  project_id: string;
  team_id: string;
  description: string;
  token_hash: string;
  last_four: string;
  created_at: number;
  last_used_at: number | null;
}

/** A user a team's SCIM client provisioned (core/scim). */
export interface ScimUsersTable {
  project_id: string;
  team_id: string;
  user_id: string;
  user_name: string;
  external_id: string | null;
  given_name: string | null;
  family_name: string | null;
  scim_active: Bool;
  created_by_scim: Bool;
  created_at: number;
  updated_at: number;
}

/** A team's SCIM group, mapped to a team permission by name (core/scim/groups.ts). */
export interface ScimGroupsTable {
  id: string;
  project_id: string;
  team_id: string;
  display_name: string;
  external_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface ScimGroupMembersTable {
  group_id: string;
  user_id: string;
}

/**
 * A team's enterprise SSO connection (core/sso): SAML 2.0 (`idp_*`, `sp_*` columns) or OpenID
 * Connect (`issuer_url`, `client_id`, `client_secret_sealed`). JSON text: `domains` (string[]),
 * `default_permissions` (string[] or null: the project's member defaults), `attribute_mapping`
 * (`{email?, name?}` attribute names), `idp_certificates` (PEM bodies). Secrets sealed (AES-256-GCM).
 */
export interface SsoConnectionsTable {
  id: string;
  project_id: string;
  team_id: string;
  type: 'saml' | 'oidc';
  display_name: string | null;
  domains: string;
  default_permissions: string | null;
  attribute_mapping: string;
  allow_idp_initiated: Bool;
  idp_initiated_redirect_url: string | null;
  idp_entity_id: string | null;
  idp_sso_url: string | null;
  idp_certificates: string | null;
  idp_metadata_url: string | null;
  sp_certificate: string | null;
  sp_private_key_sealed: string | null;
  issuer_url: string | null;
  client_id: string | null;
  client_secret_sealed: string | null;
  created_at: number;
  updated_at: number;
  /** `trust_idp` or `require_ours` (migration 0023). */
  mfa_policy: string;
  /** JSON `{group: permission ids}` or null (migration 0023). */
  group_permissions: string | null;
  /** Epoch ms of the last fetch of `idp_metadata_url` (migration 0023). */
  metadata_fetched_at: number | null;
}

/** A SAML assertion id already used through a connection, kept until the assertion expires (replay refusal). */
export interface SsoUsedAssertionsTable {
  connection_id: string;
  assertion_id: string;
  expires_at: number;
}

/** An OAuth client of a project's identity provider (core/oauth-provider, issue 31). */
export interface OAuthProviderClientsTable {
  client_id: string;
  project_id: string;
  /** JSON: the RFC 7591 client metadata without the secret, plus `skip_consent`. */
  metadata: string;
  /** The client secret sealed (AES-256-GCM, core/lib/secret-box.ts); null for public and private_key_jwt clients. */
  client_secret_sealed: string | null;
  /** `admin` (the internal API) or `dynamic` (RFC 7591 registration). */
  registered_by: string;
  created_at: number;
  updated_at: number;
}

/** One `oidc-provider` model instance (core/oauth-provider/payloads.ts). */
export interface OAuthProviderPayloadsTable {
  project_id: string;
  /** `Session`, `AccessToken`, `RefreshToken`, `Grant`, `Interaction`, `DeviceCode`, … */
  model: string;
  /** base64url SHA-256 of the model id (opaque tokens are their own id). */
  id_hash: string;
  /** JSON of the payload. */
  payload: string;
  grant_id: string | null;
  user_code_hash: string | null;
  uid: string | null;
  /** The user (`accountId`) the payload belongs to, for revoking a user's grants at sign-out or deletion. */
  account_id: string | null;
  /** Epoch ms, null for no expiry. */
  expires_at: number | null;
  /** Epoch ms when consumed (codes, rotated refresh tokens). */
  consumed_at: number | null;
}

/** A Stripe invoice of a customer's subscription, recorded from `invoice.*` webhook events (core/payments). */
export interface PaymentInvoicesTable {
  id: string;
  project_id: string;
  branch_id: string;
  /** The subscription purchase (`payment_purchases.id`) it bills. */
  purchase_id: string;
  customer_type: string;
  customer_id: string;
  stripe_invoice_id: string;
  stripe_subscription_id: string;
  /** The subscription's first invoice (`billing_reason: subscription_create`). */
  is_creation_invoice: Bool;
  /** Stripe's status (`draft`, `open`, `paid`, `uncollectible`, `void`), as received. */
  status: string | null;
  /** The invoice's total in the currency's minor unit. */
  amount_total: number | null;
  hosted_invoice_url: string | null;
  /** When Gatehouse first recorded it (epoch ms). */
  created_at: number;
  updated_at: number;
}

/** `users.source_id` (migration 0023-import-source-id), merged into {@link UsersTable}. */
export interface UsersTable {
  /** The user's id at the system it was imported from (unique per project); null when not imported. */
  source_id: string | null;
}

/** A project's email capacity boost (`POST /emails/capacity-boost`), one row per project. */
export interface EmailCapacityBoostsTable {
  project_id: string;
  /** Epoch ms when the boost ends. */
  expires_at: number;
}

/**
 * A Stripe subscription change owed after a local change to a purchase (migration 0024;
 * core/payments/stripe-outbox.ts): written in the change's transaction, retried until Stripe has it.
 */
export interface PaymentStripeOutboxTable {
  id: string;
  project_id: string;
  branch_id: string;
  /** The purchase (`payment_purchases.id`) whose local change this carries to Stripe. */
  purchase_id: string;
  stripe_subscription_id: string;
  /** `cancel` (now), `cancel_at_period_end`, or `set_quantity` (to `quantity`; at the period's end when 0). */
  action: string;
  quantity: number | null;
  /** `pending` (due at `next_attempt_at`), `done`, or `failed` (every attempt failed; see `last_error`). */
  status: string;
  attempt_count: number;
  next_attempt_at: number | null;
  /** A process's lease on the row while it calls Stripe (epoch ms); null when free. */
  locked_until: number | null;
  /** The last failed attempt's error, as Stripe or the network reported it. */
  last_error: string | null;
  created_at: number;
  updated_at: number;
}
