import { routePath, type OperationArgs, type OperationId, type OperationOutput } from './routes.ts';
import type {
  WireApiKey,
  WireContactChannel,
  WireGeoInfo,
  WireNotificationCategory,
  WirePasskey,
  WireSession,
  WireTeam,
  WireTeamInvitation,
  WireTeamMemberProfile,
} from './wire.ts';

/** What the objects below need from their app: calls as the current caller, and cache refreshes. */
export interface AppCore {
  /** Calls an operation by id (sdk/routes.ts) as the current caller. */
  op<K extends OperationId>(id: K, ...args: OperationArgs<K>): Promise<OperationOutput<K>>;
  /** Refetches cached reads whose key starts with `prefix` (all when omitted). */
  invalidate(prefix?: string): Promise<void>;
  /** The access token no longer reflects the user (after a user update): refresh before the next call. */
  suggestAccessTokenExpired(): void;
  /** The current user was deleted: the session is invalid (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/). */
  markSessionInvalid(): void;
  /** Signs the app's session out (ClientApp.signOut); what `user.signOut()` calls. */
  signOut(options?: { redirectUrl?: URL | string; noRedirect?: boolean }): Promise<void>;
  readonly accessType: 'client' | 'server' | 'admin';
}

/** A team (library names of upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/). Client calls need the matching team permissions. */
/** A team's SSO connection as account settings shows it: the SP details its IdP needs. */
export interface TeamSsoConnection {
  id: string;
  type: 'saml' | 'oidc';
  displayName: string | null;
  acsUrl: string | null;
  spEntityId: string | null;
  spMetadataUrl: string | null;
  redirectUri: string | null;
}

function toSsoConnection(w: {
  id: string;
  type: 'saml' | 'oidc';
  display_name: string | null;
  acs_url: string | null;
  sp_entity_id: string | null;
  sp_metadata_url: string | null;
  redirect_uri: string | null;
}): TeamSsoConnection {
  return {
    id: w.id,
    type: w.type,
    displayName: w.display_name,
    acsUrl: w.acs_url,
    spEntityId: w.sp_entity_id,
    spMetadataUrl: w.sp_metadata_url,
    redirectUri: w.redirect_uri,
  };
}

export class Team {
  readonly id: string;
  readonly displayName: string;
  readonly profileImageUrl: string | null;
  readonly clientMetadata: unknown;
  readonly clientReadOnlyMetadata: unknown;
  readonly serverMetadata: unknown;
  readonly createdAt: Date | null;

  protected readonly app: AppCore;
  constructor(app: AppCore, wire: WireTeam) {
    this.app = app;
    this.id = wire.id;
    this.displayName = wire.display_name;
    this.profileImageUrl = wire.profile_image_url;
    this.clientMetadata = wire.client_metadata;
    this.clientReadOnlyMetadata = wire.client_read_only_metadata;
    this.serverMetadata = wire.server_metadata;
    this.createdAt = wire.created_at_millis === undefined ? null : new Date(wire.created_at_millis);
  }

  /** `PATCH /teams/{id}` with `display_name`, `profile_image_url`, `client_metadata` (server: more). */
  async update(update: {
    displayName?: string;
    profileImageUrl?: string | null;
    clientMetadata?: unknown;
    clientReadOnlyMetadata?: unknown;
    serverMetadata?: unknown;
  }): Promise<void> {
    await this.app.op('teams.update', {
      params: { team_id: this.id },
      body: dropUndefined({
        display_name: update.displayName,
        profile_image_url: update.profileImageUrl,
        client_metadata: update.clientMetadata,
        client_read_only_metadata: update.clientReadOnlyMetadata,
        server_metadata: update.serverMetadata,
      }),
    });
    await this.app.invalidate(routePath('teams.list'));
    await this.app.invalidate(routePath('users.getCurrent'));
  }

  /** `DELETE /teams/{id}`. */
  async delete(): Promise<void> {
    await this.app.op('teams.delete', { params: { team_id: this.id }, body: {} });
    await this.app.invalidate(routePath('teams.list'));
  }

  /** `POST /team-invitations/send-code` `{email, team_id, callback_url}`. */
  async inviteUser(options: { email: string; callbackUrl: string }): Promise<void> {
    await this.app.op('teamInvitations.send', { body: { email: options.email, team_id: this.id, callback_url: options.callbackUrl } });
    await this.app.invalidate(routePath('teamInvitations.list'));
  }

  /** `GET /team-member-profiles?team_id=`. */
  async listUsers(): Promise<TeamMemberProfile[]> {
    const res = await this.app.op('teams.listMemberProfiles', { query: { team_id: this.id } });
    return res.items.map((p) => new TeamMemberProfile(p));
  }

  /** `GET /team-invitations?team_id=`. */
  async listInvitations(): Promise<TeamInvitation[]> {
    const res = await this.app.op('teamInvitations.list', { query: { team_id: this.id } });
    return res.items.map((i: WireTeamInvitation) => new TeamInvitation(this.app, i));
  }

  /**
   * The team's SSO connections (`GET /teams/{id}/sso-connections`; a Gatehouse extension, needs
   * `$manage_sso` in the team): what the team's IdP admin enters, per connection.
   */
  async listSsoConnections(): Promise<TeamSsoConnection[]> {
    const res = await this.app.op('sso.listConnections', { params: { team_id: this.id } });
    return res.items.map(toSsoConnection);
  }

  /** Creates a SAML connection from the IdP's metadata URL (`POST /teams/{id}/sso-connections`; needs `$manage_sso`). */
  async createSamlConnection(options: { idpMetadataUrl: string; displayName?: string }): Promise<TeamSsoConnection> {
    const body = {
      type: 'saml' as const,
      idp_metadata_url: options.idpMetadataUrl,
      ...(options.displayName ? { display_name: options.displayName } : {}),
    };
    return toSsoConnection(await this.app.op('sso.createConnection', { params: { team_id: this.id }, body }));
  }

  /** Deletes one of the team's SSO connections (needs `$manage_sso`). */
  async deleteSsoConnection(connectionId: string): Promise<void> {
    await this.app.op('sso.deleteConnection', { params: { team_id: this.id, connection_id: connectionId }, body: {} });
  }

  /** `POST /team-api-keys` `{team_id, description, expires_at_millis, is_public}`. */
  async createApiKey(options: { description: string; expiresAt: Date | null; isPublic?: boolean }): Promise<ApiKey> {
    const wire = await this.app.op('apiKeys.createTeamKey', {
      body: {
        team_id: this.id,
        description: options.description,
        expires_at_millis: options.expiresAt ? options.expiresAt.getTime() : null,
        is_public: options.isPublic ?? false,
      },
    });
    return new ApiKey(this.app, wire);
  }

  /** `GET /team-api-keys?team_id=`. */
  async listApiKeys(): Promise<ApiKey[]> {
    const res = await this.app.op('apiKeys.listTeamKeys', { query: { team_id: this.id } });
    return res.items.map((k) => new ApiKey(this.app, k));
  }

  /** Server: `POST /team-memberships/{team}/{user}`. */
  async addUser(userId: string): Promise<void> {
    await this.app.op('teams.addMember', { params: { team_id: this.id, user_id: userId }, body: {} });
  }

  /** `DELETE /team-memberships/{team}/{user}`. */
  async removeUser(userId: string): Promise<void> {
    await this.app.op('teams.removeMember', { params: { team_id: this.id, user_id: userId }, body: {} });
  }
}

/** A member's profile within a team. */
export class TeamMemberProfile {
  readonly userId: string;
  readonly teamId: string;
  readonly displayName: string | null;
  readonly profileImageUrl: string | null;
  constructor(wire: WireTeamMemberProfile) {
    this.userId = wire.user_id;
    this.teamId = wire.team_id;
    this.displayName = wire.display_name;
    this.profileImageUrl = wire.profile_image_url;
  }
}

/** A pending team invitation. */
export class TeamInvitation {
  readonly id: string;
  readonly teamId: string;
  readonly teamDisplayName: string | null;
  readonly recipientEmail: string | null;
  readonly expiresAt: Date;
  private readonly app: AppCore;
  constructor(app: AppCore, wire: WireTeamInvitation) {
    this.app = app;
    this.id = wire.id;
    this.teamId = wire.team_id;
    this.teamDisplayName = wire.team_display_name ?? null;
    this.recipientEmail = wire.recipient_email;
    this.expiresAt = new Date(wire.expires_at_millis);
  }
  /** `DELETE /team-invitations/{id}?team_id=`. */
  async revoke(): Promise<void> {
    await this.app.op('teamInvitations.revoke', { params: { id: this.id }, query: { team_id: this.teamId }, body: {} });
    await this.app.invalidate(routePath('teamInvitations.list'));
  }
}

/** A contact channel of the current user (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/). */
export class ContactChannel {
  readonly id: string;
  readonly type: 'email';
  readonly value: string;
  readonly isVerified: boolean;
  readonly isPrimary: boolean;
  readonly usedForAuth: boolean;
  private readonly app: AppCore;
  private readonly userId: string;
  constructor(app: AppCore, wire: WireContactChannel, userId = 'me') {
    this.app = app;
    this.userId = userId;
    this.id = wire.id;
    this.type = wire.type;
    this.value = wire.value;
    this.isVerified = wire.is_verified;
    this.isPrimary = wire.is_primary;
    this.usedForAuth = wire.used_for_auth;
  }
  /** `POST /contact-channels/{user}/{id}/send-verification-code` `{callback_url}`. */
  async sendVerificationEmail(options: { callbackUrl: string }): Promise<void> {
    await this.app.op('contactChannels.sendChannelVerificationCode', {
      params: { user_id: this.userId, contact_channel_id: this.id },
      body: { callback_url: options.callbackUrl },
    });
  }
  /** `PATCH /contact-channels/{user}/{id}` `{value, used_for_auth, is_primary}`. */
  async update(update: { value?: string; usedForAuth?: boolean; isPrimary?: boolean; isVerified?: boolean }): Promise<void> {
    await this.app.op('contactChannels.update', {
      params: { user_id: this.userId, contact_channel_id: this.id },
      body: dropUndefined({
        value: update.value,
        used_for_auth: update.usedForAuth,
        is_primary: update.isPrimary,
        is_verified: update.isVerified,
      }),
    });
    await this.app.invalidate(routePath('contactChannels.list'));
    await this.app.invalidate(routePath('users.getCurrent'));
  }
  /** `DELETE /contact-channels/{user}/{id}`. */
  async delete(): Promise<void> {
    await this.app.op('contactChannels.delete', { params: { user_id: this.userId, contact_channel_id: this.id }, body: {} });
    await this.app.invalidate(routePath('contactChannels.list'));
    await this.app.invalidate(routePath('users.getCurrent'));
  }
}

/** One of the user's sessions (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ "Session"). */
export class ActiveSession {
  readonly id: string;
  readonly userId: string;
  readonly createdAt: Date;
  readonly isImpersonation: boolean;
  readonly lastUsedAt: Date | null;
  readonly isCurrentSession: boolean;
  /** Where it was last used, when the server has a GeoIP database; else null. */
  readonly geoInfo: WireGeoInfo | null;
  /** Gatehouse: the browser (`Chrome 140`) and operating system (`macOS Sonoma`) it was used from, when known. */
  readonly browser: string | null;
  readonly os: string | null;
  constructor(wire: WireSession) {
    this.id = wire.id;
    this.userId = wire.user_id;
    this.createdAt = new Date(wire.created_at);
    this.isImpersonation = wire.is_impersonation;
    this.lastUsedAt = wire.last_used_at === null ? null : new Date(wire.last_used_at);
    this.isCurrentSession = wire.is_current_session;
    this.geoInfo = wire.last_used_at_end_user_ip_info ?? null;
    this.browser = wire.browser ?? null;
    this.os = wire.os ?? null;
  }
}

/** A user or team API key; `value` is the full secret only right after creation. */
export class ApiKey {
  readonly id: string;
  readonly type: 'user' | 'team';
  readonly userId: string | null;
  readonly teamId: string | null;
  readonly description: string;
  readonly expiresAt: Date | null;
  readonly manuallyRevokedAt: Date | null;
  readonly createdAt: Date;
  readonly isPublic: boolean;
  /** The full key (creation only) or `{ lastFour }`. */
  readonly value: string | { lastFour: string };
  private readonly app: AppCore;
  constructor(app: AppCore, wire: WireApiKey) {
    this.app = app;
    this.id = wire.id;
    this.type = wire.type;
    this.userId = wire.user_id ?? null;
    this.teamId = wire.team_id ?? null;
    this.description = wire.description;
    this.expiresAt = wire.expires_at_millis == null ? null : new Date(wire.expires_at_millis);
    this.manuallyRevokedAt = wire.manually_revoked_at_millis == null ? null : new Date(wire.manually_revoked_at_millis);
    this.createdAt = new Date(wire.created_at_millis);
    this.isPublic = wire.is_public;
    this.value = typeof wire.value === 'string' ? wire.value : { lastFour: wire.value.last_four };
  }
  /** `manually-revoked`, `expired`, or null when valid at `now` (epoch ms). */
  whyInvalid(now = Date.now()): 'manually-revoked' | 'expired' | null {
    if (this.manuallyRevokedAt) return 'manually-revoked';
    if (this.expiresAt && this.expiresAt.getTime() <= now) return 'expired';
    return null;
  }
  /** `PATCH /{type}-api-keys/{id}` `{revoked: true}`. */
  async revoke(): Promise<void> {
    await this.update({ revoked: true });
  }
  /** `PATCH /{type}-api-keys/{id}` `{description, expires_at_millis, revoked}`. */
  async update(update: { description?: string; expiresAt?: Date | null; revoked?: true }): Promise<void> {
    const owner =
      this.type === 'user' ? { user_id: this.app.accessType === 'client' ? 'me' : (this.userId ?? 'me') } : { team_id: this.teamId ?? '' };
    const input = {
      params: { api_key_id: this.id },
      query: owner,
      body: dropUndefined({
        description: update.description,
        expires_at_millis: update.expiresAt === undefined ? undefined : (update.expiresAt?.getTime() ?? null),
        revoked: update.revoked,
      }),
    };
    await (this.type === 'user' ? this.app.op('apiKeys.updateUserKey', input) : this.app.op('apiKeys.updateTeamKey', input));
    await this.app.invalidate(`/${this.type}-api-keys`);
  }
}

/** A notification category and the user's choice (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/). */
export class NotificationCategory {
  readonly id: string;
  readonly name: string;
  readonly enabled: boolean;
  readonly canDisable: boolean;
  private readonly app: AppCore;
  constructor(app: AppCore, wire: WireNotificationCategory) {
    this.app = app;
    this.id = wire.notification_category_id;
    this.name = wire.notification_category_name;
    this.enabled = wire.enabled;
    this.canDisable = wire.can_disable;
  }
  /** `PATCH /emails/notification-preference/me/{category}` `{enabled}`. */
  async setEnabled(enabled: boolean): Promise<void> {
    await this.app.op('notifications.updatePreference', {
      params: { user_id: 'me', notification_category_id: this.id },
      body: { enabled },
    });
    await this.app.invalidate(routePath('notifications.listPreferences', { user_id: 'me' }));
  }
}

/** Copies `o` without its undefined fields (the wire drops them, upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/client-interface.ts). */
export function dropUndefined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** One of a user's passkeys (Gatehouse extension; upstream exposes only `passkeyAuthEnabled`). */
export class Passkey {
  readonly id: string;
  readonly userId: string;
  readonly credentialId: string;
  /** `multiDevice` (synced) or `singleDevice`. */
  readonly deviceType: string;
  readonly backedUp: boolean;
  readonly transports: string[];
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  private readonly app: AppCore;
  constructor(app: AppCore, wire: WirePasskey) {
    this.app = app;
    this.id = wire.id;
    this.userId = wire.user_id;
    this.credentialId = wire.credential_id;
    this.deviceType = wire.device_type;
    this.backedUp = wire.backed_up;
    this.transports = wire.transports;
    this.createdAt = new Date(wire.created_at_millis);
    this.lastUsedAt = wire.last_used_at_millis === null ? null : new Date(wire.last_used_at_millis);
  }
  /** `DELETE /passkeys/{user_id}/{id}`; the last one removed turns `passkeyAuthEnabled` off. */
  async delete(): Promise<void> {
    await this.app.op('passkeys.delete', {
      params: { user_id: this.app.accessType === 'client' ? 'me' : this.userId, passkey_id: this.id },
    });
    await this.app.invalidate(routePath('passkeys.list'));
    await this.app.invalidate(routePath('users.list'));
  }
}
