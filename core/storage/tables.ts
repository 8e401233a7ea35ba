import type {
  AiChatMessagesTable,
  AiChatThreadsTable,
  AiTokenUsageTable,
  ConfigOverridesTable,
  DataVaultEntriesTable,
  InternalApiKeysTable,
  ProjectsTable,
  ServerSettingsTable,
  StoredImagesTable,
} from './tables/projects.ts';
import type {
  ApiKeysTable,
  ContactChannelsTable,
  NotificationPreferencesTable,
  PermissionClosureTable,
  PermissionDefinitionsTable,
  PermissionEdgesTable,
  ProjectPermissionGrantsTable,
  TeamDomainsTable,
  TeamMembersTable,
  TeamPermissionGrantsTable,
  TeamsTable,
  UserActiveDaysTable,
  UsersTable,
} from './tables/users.ts';
import type {
  BotChallengeSecretsTable,
  CliAuthAttemptsTable,
  MfaRecoveryCodesTable,
  OAuthAccountsTable,
  OAuthAuthorizationCodesTable,
  OAuthFlowsTable,
  OAuthTokensTable,
  PasskeysTable,
  RefreshTokensTable,
  RevokedSessionsTable,
  SignInFailuresTable,
  SignUpFactsTable,
  SignUpRuleTriggerCountsTable,
  ThrottleBucketsTable,
  TotpUsedStepsTable,
  VerificationCodesTable,
} from './tables/sign-in.ts';
import type {
  EmailCapacityBoostsTable,
  EmailSourcesTable,
  EmailsTable,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
  WebhookMessagesTable,
} from './tables/messaging.ts';
import type {
  PaymentInvoicesTable,
  PaymentItemChangesTable,
  PaymentItemCountersTable,
  PaymentPurchaseCodesTable,
  PaymentPurchasesTable,
  PaymentStripeAccountsTable,
  PaymentStripeEventsTable,
  PaymentStripeOutboxTable,
} from './tables/payments.ts';
import type {
  OAuthProviderClientsTable,
  OAuthProviderPayloadsTable,
  ScimGroupMembersTable,
  ScimGroupsTable,
  ScimTokensTable,
  ScimUsersTable,
  SsoConnectionsTable,
  SsoUsedAssertionsTable,
} from './tables/enterprise.ts';

/**
 * Table types of the one logical schema shared by every adapter.
 *
 * Conventions: ids are UUID v4 text; times are epoch-millisecond
 * integers (`_at`); booleans are 0/1 integers on both dialects, read and written as JS booleans
 * (the adapters convert, adapters/boolean-columns.ts); JSON is stored as text; secrets are
 * stored hashed (`_hash`); every tenant row carries `project_id`.
 *
 * The table types live by subject in core/storage/tables/ and are all exported from here.
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

export type * from './tables/columns.ts';
export type * from './tables/projects.ts';
export type * from './tables/users.ts';
export type * from './tables/sign-in.ts';
export type * from './tables/messaging.ts';
export type * from './tables/payments.ts';
export type * from './tables/enterprise.ts';
