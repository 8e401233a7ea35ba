import * as v from 'valibot';
import { component, JsonOutput, MillisOutput, NullableString } from '../operations/output.ts';
import { ClientTeamOutput, ServerTeamOutput } from '../teams/index.ts';
import type { AccessType } from '../operations/define.ts';
import type { ProjectConfig } from '../config/project-config.ts';
import { fromJsonText } from '../lib/json-text.ts';
import { toClientTeam, toServerTeam, type TeamRow } from '../teams/index.ts';
import type { OAuthProviderLink, UserRow } from './queries.ts';
import { restrictedReasonOf } from './restriction.ts';

/** Client view of a user (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/ "Client user object"). */
export function toClientUser(user: UserRow, config: ProjectConfig, selectedTeam: TeamRow | null, oauthProviders: OAuthProviderLink[] = []) {
  const reason = restrictedReasonOf(user, config);
  return {
    id: user.id,
    primary_email: user.primary_email,
    primary_email_verified: user.primary_email_verified,
    display_name: user.display_name,
    client_metadata: fromJsonText(user.client_metadata),
    client_read_only_metadata: fromJsonText(user.client_read_only_metadata),
    profile_image_url: user.profile_image_url,
    signed_up_at_millis: Number(user.signed_up_at),
    has_password: user.password_hash !== null,
    // Upstream (users/crud.tsx `userPrismaToCrud`): the user holds a password or OTP auth method.
    auth_with_email: user.password_hash !== null || user.otp_auth_enabled,
    oauth_providers: oauthProviders,
    selected_team_id: user.selected_team_id,
    selected_team: selectedTeam ? toClientTeam(selectedTeam) : null,
    requires_totp_mfa: user.totp_secret_base64 !== null,
    otp_auth_enabled: user.otp_auth_enabled,
    passkey_auth_enabled: user.passkey_auth_enabled,
    is_anonymous: user.is_anonymous,
    is_restricted: reason !== null,
    restricted_reason: reason,
    restricted_by_admin: user.restricted_by_admin,
    restricted_by_admin_reason: user.restricted_by_admin_reason,
  };
}

/** Server view of a user: the client fields plus the server-only ones, keys in wire order. */
export function toServerUser(user: UserRow, config: ProjectConfig, selectedTeam: TeamRow | null, oauthProviders: OAuthProviderLink[] = []) {
  const client = toClientUser(user, config, selectedTeam, oauthProviders);
  return {
    auth_with_email: client.auth_with_email,
    client_metadata: client.client_metadata,
    client_read_only_metadata: client.client_read_only_metadata,
    country_code: user.country_code,
    display_name: client.display_name,
    has_password: client.has_password,
    id: client.id,
    is_anonymous: client.is_anonymous,
    is_restricted: client.is_restricted,
    last_active_at_millis: user.last_active_at === null ? null : Number(user.last_active_at),
    oauth_providers: client.oauth_providers,
    otp_auth_enabled: client.otp_auth_enabled,
    passkey_auth_enabled: client.passkey_auth_enabled,
    primary_email: client.primary_email,
    primary_email_auth_enabled: user.primary_email_auth_enabled,
    primary_email_verified: client.primary_email_verified,
    profile_image_url: client.profile_image_url,
    requires_totp_mfa: client.requires_totp_mfa,
    restricted_by_admin: client.restricted_by_admin,
    restricted_by_admin_private_details: user.restricted_by_admin_private_details,
    restricted_by_admin_reason: client.restricted_by_admin_reason,
    restricted_reason: client.restricted_reason,
    risk_scores: JSON.parse(user.risk_scores) as { sign_up: { bot: number; free_trial_abuse: number } },
    selected_team: selectedTeam ? toServerTeam(selectedTeam) : null,
    selected_team_id: client.selected_team_id,
    server_metadata: fromJsonText(user.server_metadata),
    signed_up_at_millis: client.signed_up_at_millis,
  };
}

/** The view of `user` for an access level. */
export function toUserForAccess(
  accessType: AccessType,
  user: UserRow,
  config: ProjectConfig,
  selectedTeam: TeamRow | null,
  oauthProviders: OAuthProviderLink[] = [],
) {
  return accessType === 'client'
    ? toClientUser(user, config, selectedTeam, oauthProviders)
    : toServerUser(user, config, selectedTeam, oauthProviders);
}

/** `restricted_reason`: why a user is restricted, or null. */
const RestrictedReasonOutput = v.nullable(
  v.strictObject({ type: v.picklist(['anonymous', 'restricted_by_administrator', 'email_not_verified']) }),
);

/** An OAuth account linked to a user, as listed on the user object. */
const OAuthProviderLinkOutput = v.strictObject({ id: v.string(), account_id: v.string(), email: NullableString });

const clientUserEntries = {
  id: v.string(),
  primary_email: NullableString,
  primary_email_verified: v.boolean(),
  display_name: NullableString,
  client_metadata: JsonOutput,
  client_read_only_metadata: JsonOutput,
  profile_image_url: NullableString,
  signed_up_at_millis: MillisOutput,
  has_password: v.boolean(),
  auth_with_email: v.boolean(),
  oauth_providers: v.array(OAuthProviderLinkOutput),
  selected_team_id: NullableString,
  requires_totp_mfa: v.boolean(),
  otp_auth_enabled: v.boolean(),
  passkey_auth_enabled: v.boolean(),
  is_anonymous: v.boolean(),
  is_restricted: v.boolean(),
  restricted_reason: RestrictedReasonOutput,
  restricted_by_admin: v.boolean(),
  restricted_by_admin_reason: NullableString,
};

/** Output schema of `toClientUser`. */
export const ClientUserOutput = component(
  'ClientUser',
  v.strictObject({ ...clientUserEntries, selected_team: v.nullable(ClientTeamOutput) }),
);

/** Output schema of `toServerUser`. */
export const ServerUserOutput = component(
  'ServerUser',
  v.strictObject({
    ...clientUserEntries,
    selected_team: v.nullable(ServerTeamOutput),
    country_code: NullableString,
    last_active_at_millis: v.nullable(MillisOutput),
    primary_email_auth_enabled: v.boolean(),
    restricted_by_admin_private_details: NullableString,
    risk_scores: v.strictObject({ sign_up: v.strictObject({ bot: v.number(), free_trial_abuse: v.number() }) }),
    server_metadata: JsonOutput,
  }),
);

/** A user in the caller's view (`toUserForAccess`). */
export const UserOutput = v.union([ServerUserOutput, ClientUserOutput]);
