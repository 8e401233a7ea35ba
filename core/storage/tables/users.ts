/**
 * Table types (see core/storage/tables.ts for the conventions): Users, their contact channels and activity, teams, permissions and API keys.
 */
import type { Bool } from './columns.ts';

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
  /** The user's id at the system it was imported from (unique per project; migration 0023-import-source-id); null when not imported. */
  source_id: string | null;
}

/** A user was active on `day` (UTC `YYYY-MM-DD`). */
export interface UserActiveDaysTable {
  project_id: string;
  day: string;
  user_id: string;
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
