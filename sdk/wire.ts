/**
 * Wire shapes (snake_case JSON) of the answers the SDK reads, from upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/ and
 * upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/. Only the fields the SDK maps are listed.
 */
export interface WireTeam {
  id: string;
  display_name: string;
  profile_image_url: string | null;
  client_metadata: unknown;
  client_read_only_metadata: unknown;
  server_metadata?: unknown;
  created_at_millis?: number;
}

export interface WireUser {
  id: string;
  display_name: string | null;
  primary_email: string | null;
  primary_email_verified: boolean;
  profile_image_url: string | null;
  signed_up_at_millis: number;
  client_metadata: unknown;
  client_read_only_metadata: unknown;
  server_metadata?: unknown;
  has_password: boolean;
  auth_with_email?: boolean;
  primary_email_auth_enabled?: boolean;
  otp_auth_enabled: boolean;
  passkey_auth_enabled: boolean;
  requires_totp_mfa: boolean;
  is_anonymous: boolean;
  is_restricted?: boolean;
  restricted_reason?: { type: string } | null;
  selected_team_id: string | null;
  selected_team?: WireTeam | null;
  oauth_providers?: { id: string; account_id: string; email?: string | null }[];
  last_active_at_millis?: number | null;
}

export interface WireSession {
  id: string;
  user_id: string;
  created_at: number;
  is_impersonation: boolean;
  last_used_at: number | null;
  is_current_session: boolean;
  last_used_at_end_user_ip_info?: WireGeoInfo;
  /** Gatehouse extension: the session's `User-Agent`, and the browser and OS read from it. */
  user_agent?: string | null;
  browser?: string | null;
  os?: string | null;
}

/** Upstream's geo info of a session's last use (Gatehouse: parts its GeoIP database lacks are null). */
export interface WireGeoInfo {
  ip: string;
  countryCode: string | null;
  regionCode: string | null;
  cityName: string | null;
  latitude: number | null;
  longitude: number | null;
  tzIdentifier: string | null;
}

export interface WireContactChannel {
  id: string;
  user_id?: string;
  type: 'email';
  value: string;
  is_verified: boolean;
  is_primary: boolean;
  used_for_auth: boolean;
}

export interface WireApiKey {
  id: string;
  type: 'user' | 'team';
  user_id?: string | null;
  team_id?: string | null;
  description: string;
  expires_at_millis?: number | null;
  manually_revoked_at_millis?: number | null;
  created_at_millis: number;
  is_public: boolean;
  value: string | { last_four: string };
}

export interface WireClientProject {
  id: string;
  display_name: string;
  config: {
    sign_up_enabled: boolean;
    credential_enabled: boolean;
    magic_link_enabled: boolean;
    passkey_enabled: boolean;
    client_team_creation_enabled: boolean;
    client_user_deletion_enabled: boolean;
    allow_user_api_keys: boolean;
    allow_team_api_keys: boolean;
    enabled_oauth_providers: { id: string; display_name?: string }[];
    /** Gatehouse: the Cloudflare Turnstile site key, null (or absent on other servers) without a bot challenge. */
    bot_challenge_site_key?: string | null;
  };
}

export interface WireSignInResponse {
  access_token: string;
  refresh_token: string;
  user_id?: string;
  is_new_user?: boolean;
}

export interface WireList<T> {
  items: T[];
  is_paginated?: boolean;
  pagination?: { next_cursor: string | null };
}

export interface WireNotificationCategory {
  notification_category_id: string;
  notification_category_name: string;
  enabled: boolean;
  can_disable: boolean;
}

export interface WireTeamMemberProfile {
  team_id: string;
  user_id: string;
  display_name: string | null;
  profile_image_url: string | null;
  user?: WireUser;
}

export interface WireTeamInvitation {
  id: string;
  team_id: string;
  team_display_name?: string;
  recipient_email: string | null;
  expires_at_millis: number;
}

/** A passkey (`GET /passkeys?user_id=`, a Gatehouse extension): no key material. */
export interface WirePasskey {
  id: string;
  user_id: string;
  credential_id: string;
  device_type: string;
  backed_up: boolean;
  transports: string[];
  created_at_millis: number;
  last_used_at_millis: number | null;
}
