import type { WireApiKey, WireContactChannel, WireList, WireNotificationCategory, WirePasskey, WireSession, WireTeam, WireTeamInvitation, WireTeamMemberProfile } from './wire.ts';

/** What the objects below need from their app: calls as the current caller, and cache refreshes. */
export interface AppCore {
  call<T = any>(method: string, path: string, options?: { body?: unknown; query?: Record<string, string | number | boolean | null | undefined> }): Promise<T>;
  /** Refetches cached reads whose key starts with `prefix` (all when omitted). */
  invalidate(prefix?: string): Promise<void>;
  /** The access token no longer reflects the user (after a user update): refresh before the next call. */
  suggestAccessTokenExpired(): void;
  /** The current user was deleted: the session is invalid (upstream packages/template/src/lib/stack-app/). */
  markSessionInvalid(): void;
  readonly accessType: 'client' | 'server' | 'admin';
}

const enc = encodeURIComponent;

/** A team (library names of upstream packages/stack-shared/src/interface/crud/). Client calls need the matching team permissions. */
export class Team {
  readonly id: string;
  readonly displayName: string;
  readonly profileImageUrl: string | null;
  readonly clientMetadata: unknown;
  readonly clientReadOnlyMetadata: unknown;
  readonly serverMetadata: unknown;
  readonly createdAt: Date | null;

  constructor(protected readonly app: AppCore, wire: WireTeam) {
    this.id = wire.id;
    this.displayName = wire.display_name;
    this.profileImageUrl = wire.profile_image_url;
    this.clientMetadata = wire.client_metadata;
    this.clientReadOnlyMetadata = wire.client_read_only_metadata;
    this.serverMetadata = wire.server_metadata;
    this.createdAt = wire.created_at_millis === undefined ? null : new Date(wire.created_at_millis);
  }

  /** `PATCH /teams/{id}` with `display_name`, `profile_image_url`, `client_metadata` (server: more). */
  async update(update: { displayName?: string; profileImageUrl?: string | null; clientMetadata?: unknown; clientReadOnlyMetadata?: unknown; serverMetadata?: unknown }): Promise<void> {
    await this.app.call('PATCH', `/teams/${enc(this.id)}`, { body: dropUndefined({ display_name: update.displayName, profile_image_url: update.profileImageUrl, client_metadata: update.clientMetadata, client_read_only_metadata: update.clientReadOnlyMetadata, server_metadata: update.serverMetadata }) });
    await this.app.invalidate('/teams');
    await this.app.invalidate('/users/me');
  }

  /** `DELETE /teams/{id}`. */
  async delete(): Promise<void> {
    await this.app.call('DELETE', `/teams/${enc(this.id)}`, { body: {} });
    await this.app.invalidate('/teams');
  }

  /** `POST /team-invitations/send-code` `{email, team_id, callback_url}`. */
  async inviteUser(options: { email: string; callbackUrl: string }): Promise<void> {
    await this.app.call('POST', '/team-invitations/send-code', { body: { email: options.email, team_id: this.id, callback_url: options.callbackUrl } });
    await this.app.invalidate('/team-invitations');
  }

  /** `GET /team-member-profiles?team_id=`. */
  async listUsers(): Promise<TeamMemberProfile[]> {
    const res = await this.app.call<WireList<WireTeamMemberProfile>>('GET', '/team-member-profiles', { query: { team_id: this.id } });
    return res.items.map((p) => new TeamMemberProfile(p));
  }

  /** `GET /team-invitations?team_id=`. */
  async listInvitations(): Promise<TeamInvitation[]> {
    const res = await this.app.call<WireList<WireTeamInvitation>>('GET', '/team-invitations', { query: { team_id: this.id } });
    return res.items.map((i) => new TeamInvitation(this.app, i));
  }

  /** `POST /team-api-keys` `{team_id, description, expires_at_millis, is_public}`. */
  async createApiKey(options: { description: string; expiresAt: Date | null; isPublic?: boolean }): Promise<ApiKey> {
    const wire = await this.app.call<WireApiKey>('POST', '/team-api-keys', { body: { team_id: this.id, description: options.description, expires_at_millis: options.expiresAt ? options.expiresAt.getTime() : null, is_public: options.isPublic ?? false } });
    return new ApiKey(this.app, wire);
  }

  /** `GET /team-api-keys?team_id=`. */
  async listApiKeys(): Promise<ApiKey[]> {
    const res = await this.app.call<WireList<WireApiKey>>('GET', '/team-api-keys', { query: { team_id: this.id } });
    return res.items.map((k) => new ApiKey(this.app, k));
  }

  /** Server: `POST /team-memberships/{team}/{user}`. */
  async addUser(userId: string): Promise<void> {
    await this.app.call('POST', `/team-memberships/${enc(this.id)}/${enc(userId)}`, { body: {} });
  }

  /** `DELETE /team-memberships/{team}/{user}`. */
  async removeUser(userId: string): Promise<void> {
    await this.app.call('DELETE', `/team-memberships/${enc(this.id)}/${enc(userId)}`, { body: {} });
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
  constructor(private readonly app: AppCore, wire: WireTeamInvitation) {
    this.id = wire.id;
    this.teamId = wire.team_id;
    this.teamDisplayName = wire.team_display_name ?? null;
    this.recipientEmail = wire.recipient_email;
    this.expiresAt = new Date(wire.expires_at_millis);
  }
  /** `DELETE /team-invitations/{id}?team_id=`. */
  async revoke(): Promise<void> {
    await this.app.call('DELETE', `/team-invitations/${enc(this.id)}`, { query: { team_id: this.teamId }, body: {} });
    await this.app.invalidate('/team-invitations');
  }
}

/** A contact channel of the current user (upstream packages/stack-shared/src/interface/crud/). */
export class ContactChannel {
  readonly id: string;
  readonly type: 'email';
  readonly value: string;
  readonly isVerified: boolean;
  readonly isPrimary: boolean;
  readonly usedForAuth: boolean;
  constructor(private readonly app: AppCore, wire: WireContactChannel, private readonly userId = 'me') {
    this.id = wire.id;
    this.type = wire.type;
    this.value = wire.value;
    this.isVerified = wire.is_verified;
    this.isPrimary = wire.is_primary;
    this.usedForAuth = wire.used_for_auth;
  }
  /** `POST /contact-channels/{user}/{id}/send-verification-code` `{callback_url}`. */
  async sendVerificationEmail(options: { callbackUrl: string }): Promise<void> {
    await this.app.call('POST', `/contact-channels/${enc(this.userId)}/${enc(this.id)}/send-verification-code`, { body: { callback_url: options.callbackUrl } });
  }
  /** `PATCH /contact-channels/{user}/{id}` `{value, used_for_auth, is_primary}`. */
  async update(update: { value?: string; usedForAuth?: boolean; isPrimary?: boolean; isVerified?: boolean }): Promise<void> {
    await this.app.call('PATCH', `/contact-channels/${enc(this.userId)}/${enc(this.id)}`, { body: dropUndefined({ value: update.value, used_for_auth: update.usedForAuth, is_primary: update.isPrimary, is_verified: update.isVerified }) });
    await this.app.invalidate('/contact-channels');
    await this.app.invalidate('/users/me');
  }
  /** `DELETE /contact-channels/{user}/{id}`. */
  async delete(): Promise<void> {
    await this.app.call('DELETE', `/contact-channels/${enc(this.userId)}/${enc(this.id)}`, { body: {} });
    await this.app.invalidate('/contact-channels');
    await this.app.invalidate('/users/me');
  }
}

/** One of the user's sessions (upstream packages/stack-shared/src/interface/crud/ "Session"). */
export class ActiveSession {
  readonly id: string;
  readonly userId: string;
  readonly createdAt: Date;
  readonly isImpersonation: boolean;
  readonly lastUsedAt: Date | null;
  readonly isCurrentSession: boolean;
  readonly geoInfo: unknown;
  constructor(wire: WireSession) {
    this.id = wire.id;
    this.userId = wire.user_id;
    this.createdAt = new Date(wire.created_at);
    this.isImpersonation = wire.is_impersonation;
    this.lastUsedAt = wire.last_used_at === null ? null : new Date(wire.last_used_at);
    this.isCurrentSession = wire.is_current_session;
    this.geoInfo = wire.last_used_at_end_user_ip_info ?? null;
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
  constructor(private readonly app: AppCore, wire: WireApiKey) {
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
    const owner = this.type === 'user' ? { user_id: this.app.accessType === 'client' ? 'me' : this.userId ?? 'me' } : { team_id: this.teamId ?? '' };
    await this.app.call('PATCH', `/${this.type}-api-keys/${enc(this.id)}`, { query: owner, body: dropUndefined({ description: update.description, expires_at_millis: update.expiresAt === undefined ? undefined : update.expiresAt?.getTime() ?? null, revoked: update.revoked }) });
    await this.app.invalidate(`/${this.type}-api-keys`);
  }
}

/** A notification category and the user's choice (upstream packages/stack-shared/src/interface/crud/). */
export class NotificationCategory {
  readonly id: string;
  readonly name: string;
  readonly enabled: boolean;
  readonly canDisable: boolean;
  constructor(private readonly app: AppCore, wire: WireNotificationCategory) {
    this.id = wire.notification_category_id;
    this.name = wire.notification_category_name;
    this.enabled = wire.enabled;
    this.canDisable = wire.can_disable;
  }
  /** `PATCH /emails/notification-preference/me/{category}` `{enabled}`. */
  async setEnabled(enabled: boolean): Promise<void> {
    await this.app.call('PATCH', `/emails/notification-preference/me/${enc(this.id)}`, { body: { enabled } });
    await this.app.invalidate('/emails/notification-preference');
  }
}

/** Copies `o` without its undefined fields (the wire drops them, upstream packages/stack-shared/src/interface/client-interface.ts). */
export function dropUndefined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
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
  constructor(private readonly app: AppCore, wire: WirePasskey) {
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
    await this.app.call('DELETE', `/passkeys/${enc(this.app.accessType === 'client' ? 'me' : this.userId)}/${enc(this.id)}`);
    await this.app.invalidate('/passkeys');
    await this.app.invalidate('/users');
  }
}
