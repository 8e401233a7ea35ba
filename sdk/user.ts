import { isKnownErrorOf } from './errors.ts';
import { routePath } from './routes.ts';
import { toBase64 } from './totp.ts';
import { ActiveSession, ApiKey, ContactChannel, NotificationCategory, Passkey, Team, dropUndefined, type AppCore } from './objects.ts';
import type { WireContactChannel, WireNotificationCategory, WirePasskey, WireUser } from './wire.ts';

/** Fields a user update may carry (client: the first group; server adds the rest). */
export interface UserUpdate {
  displayName?: string | null;
  profileImageUrl?: string | null;
  clientMetadata?: unknown;
  selectedTeamId?: string | null;
  otpAuthEnabled?: boolean;
  passkeyAuthEnabled?: boolean;
  totpSecretBase64?: string | null;
  primaryEmail?: string | null;
  /** Gatehouse extension: the language of the user's emails (BCP 47, e.g. `de`); null for the project's default. */
  locale?: string | null;
  // server only
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
  primaryEmailVerified?: boolean;
  primaryEmailAuthEnabled?: boolean;
  password?: string | null;
}

/** The wire body of a user update (snake_case, undefined fields dropped). */
export function userUpdateToWire(u: UserUpdate): Record<string, unknown> {
  return dropUndefined({
    display_name: u.displayName,
    profile_image_url: u.profileImageUrl,
    client_metadata: u.clientMetadata,
    selected_team_id: u.selectedTeamId,
    otp_auth_enabled: u.otpAuthEnabled,
    passkey_auth_enabled: u.passkeyAuthEnabled,
    totp_secret_base64: u.totpSecretBase64,
    primary_email: u.primaryEmail,
    locale: u.locale,
    client_read_only_metadata: u.clientReadOnlyMetadata,
    server_metadata: u.serverMetadata,
    primary_email_verified: u.primaryEmailVerified,
    primary_email_auth_enabled: u.primaryEmailAuthEnabled,
    password: u.password,
  });
}

/**
 * A user with the library names of upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/. As the current user (`/users/me`, client
 * or server with a token store) its calls act on `me`; as a server-fetched user, on its id.
 */
export class User {
  readonly id: string;
  readonly displayName: string | null;
  readonly primaryEmail: string | null;
  readonly primaryEmailVerified: boolean;
  readonly profileImageUrl: string | null;
  readonly signedUpAt: Date;
  readonly clientMetadata: unknown;
  readonly clientReadOnlyMetadata: unknown;
  readonly serverMetadata: unknown;
  readonly hasPassword: boolean;
  readonly emailAuthEnabled: boolean;
  readonly otpAuthEnabled: boolean;
  readonly passkeyAuthEnabled: boolean;
  readonly isMultiFactorRequired: boolean;
  readonly isAnonymous: boolean;
  readonly isRestricted: boolean;
  readonly oauthProviders: { id: string; accountId: string; email: string | null }[];
  readonly selectedTeam: Team | null;
  readonly lastActiveAt: Date | null;

  protected readonly app: AppCore;
  readonly wire: WireUser;
  protected readonly ref: string;
  constructor(app: AppCore, wire: WireUser, ref: string = 'me') {
    this.app = app;
    this.wire = wire;
    this.ref = ref;
    this.id = wire.id;
    this.displayName = wire.display_name;
    this.primaryEmail = wire.primary_email;
    this.primaryEmailVerified = wire.primary_email_verified;
    this.profileImageUrl = wire.profile_image_url;
    this.signedUpAt = new Date(wire.signed_up_at_millis);
    this.clientMetadata = wire.client_metadata;
    this.clientReadOnlyMetadata = wire.client_read_only_metadata;
    this.serverMetadata = wire.server_metadata;
    this.hasPassword = wire.has_password;
    this.emailAuthEnabled = wire.auth_with_email ?? wire.primary_email_auth_enabled ?? false;
    this.otpAuthEnabled = wire.otp_auth_enabled;
    this.passkeyAuthEnabled = wire.passkey_auth_enabled;
    this.isMultiFactorRequired = wire.requires_totp_mfa;
    this.isAnonymous = wire.is_anonymous;
    this.isRestricted = wire.is_restricted ?? false;
    this.oauthProviders = (wire.oauth_providers ?? []).map((p) => ({ id: p.id, accountId: p.account_id, email: p.email ?? null }));
    this.selectedTeam = wire.selected_team ? new Team(app, wire.selected_team) : null;
    this.lastActiveAt = wire.last_active_at_millis == null ? null : new Date(wire.last_active_at_millis);
  }

  /** `PATCH /users/{me|id}`; a client update marks the access token expired (its claims changed). */
  async update(update: UserUpdate): Promise<void> {
    const body = userUpdateToWire(update);
    await (this.ref === 'me'
      ? this.app.op('users.updateCurrent', { body })
      : this.app.op('users.update', { params: { user_id: this.ref }, body }));
    if (this.ref === 'me') this.app.suggestAccessTokenExpired();
    await this.app.invalidate(routePath('users.list'));
  }

  /** Turns TOTP on with `secret` (raw bytes; `PATCH` `totp_secret_base64`) or off with null. */
  setTotpSecret(secret: Uint8Array | null): Promise<void> {
    return this.update({ totpSecretBase64: secret === null ? null : toBase64(secret) });
  }

  /**
   * `POST /auth/mfa/recovery-codes` (Gatehouse extension): 10 new single-use recovery codes, shown
   * this once; earlier ones stop working. Needs TOTP on (400 text otherwise).
   */
  async createMfaRecoveryCodes(): Promise<string[]> {
    const res = await this.app.op('mfa.createRecoveryCodes', { body: {} });
    return res.recovery_codes;
  }

  /** `GET /auth/mfa/recovery-codes` (Gatehouse extension): how many recovery codes are unused. */
  async getMfaRecoveryCodeCount(): Promise<number> {
    return (await this.app.op('mfa.getRecoveryCodeStatus')).unused_count;
  }

  /** Sets `displayName`. */
  setDisplayName(displayName: string | null): Promise<void> {
    return this.update({ displayName });
  }

  /** Sets `clientMetadata`. */
  setClientMetadata(clientMetadata: unknown): Promise<void> {
    return this.update({ clientMetadata });
  }

  /** Selects a team (or none). */
  setSelectedTeam(team: Team | string | null): Promise<void> {
    return this.update({ selectedTeamId: team === null ? null : typeof team === 'string' ? team : team.id });
  }

  /** `DELETE /users/{me|id}` (client: needs client_user_deletion_enabled); deleting `me` ends the session. */
  /** Signs the current user out, as Stack's `CurrentUser.signOut`: the app's signOut (ends the session, then goes to after-sign-out unless `noRedirect`). */
  signOut(options?: { redirectUrl?: URL | string; noRedirect?: boolean }): Promise<void> {
    return this.app.signOut(options);
  }

  async delete(): Promise<void> {
    await (this.ref === 'me'
      ? this.app.op('users.deleteCurrent', { body: {} })
      : this.app.op('users.delete', { params: { user_id: this.ref }, body: {} }));
    if (this.ref === 'me') this.app.markSessionInvalid();
    await this.app.invalidate();
  }

  /** `POST /auth/password/update` `{old_password, new_password}`; PASSWORD_CONFIRMATION_MISMATCH on a wrong old one. */
  async updatePassword(options: { oldPassword: string; newPassword: string }): Promise<void> {
    await this.app.op('authPassword.update', { body: { old_password: options.oldPassword, new_password: options.newPassword } });
    await this.app.invalidate(routePath('users.getCurrent'));
  }

  /** `POST /auth/password/set` `{password}` (users without one). */
  async setPassword(options: { password: string }): Promise<void> {
    await this.app.op('authPassword.set', { body: { password: options.password } });
    await this.app.invalidate(routePath('users.getCurrent'));
  }

  /** `POST /contact-channels/send-verification-code` `{email, callback_url}` for the primary email. */
  async sendVerificationEmail(options: { callbackUrl: string }): Promise<void> {
    if (!this.primaryEmail) throw new Error('Sending a verification email requires a primary email.');
    await this.app.op('contactChannels.sendVerificationCode', { body: { email: this.primaryEmail, callback_url: options.callbackUrl } });
  }

  /** `GET /auth/sessions?user_id=`. */
  async getActiveSessions(): Promise<ActiveSession[]> {
    const res = await this.app.op('sessions.list', { query: { user_id: this.ref } });
    return res.items.map((s) => new ActiveSession(s));
  }

  /** `DELETE /auth/sessions/{id}?user_id=me` (CANNOT_DELETE_CURRENT_SESSION for the current one). */
  async revokeSession(sessionId: string): Promise<void> {
    await this.app.op('sessions.delete', { params: { id: sessionId }, query: this.ref === 'me' ? { user_id: 'me' } : {}, body: {} });
    await this.app.invalidate(routePath('sessions.list'));
  }

  /** `GET /contact-channels?user_id=`. */
  async listContactChannels(): Promise<ContactChannel[]> {
    const res = await this.app.op('contactChannels.list', { query: { user_id: this.ref } });
    return res.items.map((c: WireContactChannel) => new ContactChannel(this.app, c, this.ref));
  }

  /** `POST /contact-channels` `{user_id, type: 'email', value, used_for_auth, is_primary}` (`type` as Stack's options: only `email`). */
  async createContactChannel(options: {
    value: string;
    type?: 'email';
    usedForAuth: boolean;
    isPrimary?: boolean;
    isVerified?: boolean;
  }): Promise<ContactChannel> {
    const wire = await this.app.op('contactChannels.create', {
      body: dropUndefined({
        user_id: this.ref,
        type: 'email',
        value: options.value,
        used_for_auth: options.usedForAuth,
        is_primary: options.isPrimary ?? false,
        is_verified: options.isVerified,
      }),
    });
    await this.app.invalidate(routePath('contactChannels.list'));
    return new ContactChannel(this.app, wire, this.ref);
  }

  /** `GET /teams?user_id=`. */
  async listTeams(): Promise<Team[]> {
    const res = await this.app.op('teams.list', { query: { user_id: this.ref } });
    return res.items.map((t) => new Team(this.app, t));
  }

  /** One of the user's teams, or null. */
  async getTeam(teamId: string): Promise<Team | null> {
    return (await this.listTeams()).find((t) => t.id === teamId) ?? null;
  }

  /** `POST /teams` `{display_name, profile_image_url?, creator_user_id}`, then selects it (client). */
  async createTeam(options: { displayName: string; profileImageUrl?: string | null }): Promise<Team> {
    const wire = await this.app.op('teams.create', {
      body: dropUndefined({ display_name: options.displayName, profile_image_url: options.profileImageUrl, creator_user_id: this.ref }),
    });
    if (this.ref === 'me') await this.update({ selectedTeamId: wire.id });
    await this.app.invalidate(routePath('teams.list'));
    return new Team(this.app, wire);
  }

  /** `DELETE /team-memberships/{team}/{me|id}`. */
  async leaveTeam(team: Team | string): Promise<void> {
    await this.app.op('teams.removeMember', {
      params: { team_id: typeof team === 'string' ? team : team.id, user_id: this.ref },
      body: {},
    });
    await this.app.invalidate(routePath('teams.list'));
    await this.app.invalidate(routePath('users.getCurrent'));
  }

  /**
   * The user's permissions, as Stack's `listPermissions`: in `team` (`GET /team-permissions?team_id=&user_id=&recursive=`),
   * or without a team the project permissions (`GET /project-permissions`); recursive by default.
   */
  async listPermissions(team: Team | string, options?: { recursive?: boolean }): Promise<{ id: string }[]>;
  async listPermissions(options?: { recursive?: boolean }): Promise<{ id: string }[]>;
  async listPermissions(
    scope?: Team | string | { recursive?: boolean },
    maybeOptions: { recursive?: boolean } = {},
  ): Promise<{ id: string }[]> {
    if (scope === undefined || (typeof scope === 'object' && !(scope instanceof Team))) return this.listProjectPermissions(scope ?? {});
    const res = await this.app.op('permissions.listTeam', {
      query: { team_id: typeof scope === 'string' ? scope : scope.id, user_id: this.ref, recursive: maybeOptions.recursive ?? true },
    });
    return res.items.map((p) => ({ id: p.id }));
  }

  /** True when the user holds `permissionId` in `team`, or without a team as a project permission (existence in the recursive list). */
  async hasPermission(team: Team | string, permissionId: string): Promise<boolean>;
  async hasPermission(permissionId: string): Promise<boolean>;
  async hasPermission(scope: Team | string, permissionId?: string): Promise<boolean> {
    return (await this.getPermissionIn(scope, permissionId)) !== null;
  }

  /** The permission `{ id }` the user holds in `team` (or as a project permission without a team), or null (Stack's `getPermission`). */
  async getPermission(team: Team | string, permissionId: string): Promise<{ id: string } | null>;
  async getPermission(permissionId: string): Promise<{ id: string } | null>;
  async getPermission(scope: Team | string, permissionId?: string): Promise<{ id: string } | null> {
    return this.getPermissionIn(scope, permissionId);
  }

  private async getPermissionIn(scope: Team | string, permissionId: string | undefined): Promise<{ id: string } | null> {
    const list = permissionId === undefined ? await this.listProjectPermissions() : await this.listPermissions(scope);
    const id = permissionId ?? (scope as string);
    return list.find((p) => p.id === id) ?? null;
  }

  /** `GET /project-permissions?user_id=&recursive=`. */
  async listProjectPermissions(options: { recursive?: boolean } = {}): Promise<{ id: string }[]> {
    const res = await this.app.op('permissions.listProject', { query: { user_id: this.ref, recursive: options.recursive ?? true } });
    return res.items.map((p) => ({ id: p.id }));
  }

  /** `GET /user-api-keys?user_id=`. */
  async listApiKeys(): Promise<ApiKey[]> {
    const res = await this.app.op('apiKeys.listUserKeys', { query: { user_id: this.ref } });
    return res.items.map((k) => new ApiKey(this.app, k));
  }

  /** `POST /user-api-keys` `{user_id, description, expires_at_millis, is_public}`; the result has the full `value`. */
  async createApiKey(options: { description: string; expiresAt: Date | null; isPublic?: boolean }): Promise<ApiKey> {
    const wire = await this.app.op('apiKeys.createUserKey', {
      body: {
        user_id: this.ref,
        description: options.description,
        expires_at_millis: options.expiresAt ? options.expiresAt.getTime() : null,
        is_public: options.isPublic ?? false,
      },
    });
    await this.app.invalidate(routePath('apiKeys.listUserKeys'));
    return new ApiKey(this.app, wire);
  }

  /** `GET /passkeys?user_id=` (Gatehouse extension): the user's passkeys, oldest first. */
  async listPasskeys(): Promise<Passkey[]> {
    const res = await this.app.op('passkeys.list', { query: { user_id: this.ref } });
    return res.items.map((p: WirePasskey) => new Passkey(this.app, p));
  }

  /** `GET /emails/notification-preference/{me|id}`. */
  async listNotificationCategories(): Promise<NotificationCategory[]> {
    const res = await this.app.op('notifications.listPreferences', { params: { user_id: this.ref } });
    return res.items.map((c: WireNotificationCategory) => new NotificationCategory(this.app, c));
  }

  /**
   * `GET /oauth-providers?user_id=`: the user's linked OAuth accounts. `id` is the provider's id
   * (`provider_config_id` on the wire), `linkId` the link's own id (used to update or unlink it).
   */
  async listOAuthProviders(): Promise<
    {
      id: string;
      linkId: string;
      type: string;
      accountId: string | null;
      email: string | null;
      allowSignIn: boolean;
      allowConnectedAccounts: boolean;
    }[]
  > {
    const res = await this.app.op('authOauth.listOAuthProviders', { query: { user_id: this.ref } });
    return res.items.map((p: Record<string, any>) => ({
      id: p.provider_config_id ?? p.id,
      linkId: p.id,
      type: p.type,
      accountId: p.account_id ?? p.provider_user_id ?? null,
      email: p.email ?? null,
      allowSignIn: !!p.allow_sign_in,
      allowConnectedAccounts: !!p.allow_connected_accounts,
    }));
  }

  /**
   * The applications (clients of the project's identity provider) the user authorized, most recent
   * first (`GET /oauth-provider/authorized-apps`): name, https logo or null, granted scopes, and
   * when the user first authorized each.
   */
  async listAuthorizedApps(): Promise<{ clientId: string; name: string; logoUri: string | null; scopes: string[]; authorizedAt: Date }[]> {
    const res = await this.app.op('authorizedApps.list', { query: { user_id: this.ref } });
    return res.items.map((a: Record<string, any>) => ({
      clientId: a.client_id,
      name: a.client_name,
      logoUri: a.logo_uri ?? null,
      scopes: a.scopes,
      authorizedAt: new Date(a.authorized_at),
    }));
  }

  /** `DELETE /oauth-provider/authorized-apps/{client_id}`: ends the user's authorization of the app (its refresh tokens stop working). */
  async revokeAuthorizedApp(clientId: string): Promise<void> {
    await this.app.op('authorizedApps.revoke', { params: { client_id: clientId }, query: { user_id: this.ref } });
  }

  /** `DELETE /oauth-providers/{me|id}/{linkId}`: unlinks an OAuth account (its stored provider tokens go too). */
  async unlinkOAuthProvider(linkId: string): Promise<void> {
    await this.app.op('authOauth.deleteOAuthProvider', { params: { user_id: this.ref, provider_id: linkId } });
  }

  /**
   * An access token for a connected OAuth account (`POST /connected-accounts/{me|id}/{provider}/access-token`
   * `{scope}`), or null when the account is not connected or lacks a scope (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/client-interface.ts).
   */
  async getConnectedAccountAccessToken(providerId: string, options: { scopes?: string[] } = {}): Promise<string | null> {
    try {
      const res = await this.app.op('connectedAccounts.createAccessToken', {
        params: { user_id: this.ref, provider_id: providerId },
        body: { scope: (options.scopes ?? []).join(' ') },
      });
      return res.access_token;
    } catch (error) {
      if (isKnownErrorOf(error, ['OAUTH_CONNECTION_NOT_CONNECTED_TO_USER', 'OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE'])) return null;
      throw error;
    }
  }

  /** Server: `POST /auth/sessions` `{user_id, expires_in_millis (default 1 year), is_impersonation}` → tokens. */
  async createSession(
    options: { expiresInMillis?: number; isImpersonation?: boolean } = {},
  ): Promise<{ accessToken: string; refreshToken: string }> {
    const res = await this.app.op('sessions.create', {
      body: {
        user_id: this.id,
        expires_in_millis: options.expiresInMillis ?? 31_536_000_000,
        is_impersonation: options.isImpersonation ?? false,
      },
    });
    return { accessToken: res.access_token, refreshToken: res.refresh_token };
  }

  /** Server: `POST /team-permissions/{team}/{user}/{permission}`. */
  async grantPermission(team: Team | string, permissionId: string): Promise<void> {
    await this.app.op('permissions.grantTeam', {
      params: { team_id: typeof team === 'string' ? team : team.id, user_id: this.id, permission_id: permissionId },
      body: {},
    });
  }

  /** Server: `DELETE /team-permissions/{team}/{user}/{permission}`. */
  async revokePermission(team: Team | string, permissionId: string): Promise<void> {
    await this.app.op('permissions.revokeTeam', {
      params: { team_id: typeof team === 'string' ? team : team.id, user_id: this.id, permission_id: permissionId },
      body: {},
    });
  }
}
