import { ClientApp, type ClientAppOptions } from './client-app.ts';
import { GatehouseConfigError, isKnownErrorOf } from './errors.ts';
import { Team, dropUndefined, type AppCore } from './objects.ts';
import type { OperationId } from './routes.ts';
import { ApiClient } from './request.ts';
import { Session } from './session.ts';
import { resolveTokenStore, type TokenStoreInit } from './tokens.ts';
import { User, userUpdateToWire, type UserUpdate } from './user.ts';
import type { WireUser } from './wire.ts';

/** Server app options: the client's plus the secret server key. */
export interface ServerAppOptions extends ClientAppOptions {
  secretServerKey?: string;
}

/**
 * The server-level app (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/): everything the client app does, plus any user, team,
 * session and email with the secret server key. Never ship it to browsers.
 */
export class ServerApp extends ClientApp {
  constructor(options: ServerAppOptions, internal?: ConstructorParameters<typeof ClientApp>[1]) {
    const secretServerKey = options.secretServerKey;
    if (!internal && !secretServerKey)
      throw new GatehouseConfigError('No secret server key configured: a ServerApp needs secretServerKey.');
    super(options, internal ?? { accessType: 'server', secretServerKey, fingerprint: { secretServerKey } });
  }

  protected override makeUser(wire: WireUser): User {
    return new User(this.core, wire, 'me');
  }

  /**
   * A user by id (`GET /users/{id}`; USER_NOT_FOUND → null), or the user of a request's tokens
   * (`{tokenStore}`: the `x-stack-auth` header form, a store, or tokens), or the API key's owner
   * (`{apiKey}`; an invalid key → null). Without arguments: the app's own session user.
   */
  async getUserById(userId: string): Promise<User | null> {
    try {
      return new User(this.core, await this.core.op('users.get', { params: { user_id: userId } }), userId);
    } catch (error) {
      if (isKnownErrorOf(error, ['USER_NOT_FOUND', 'USER_ID_DOES_NOT_EXIST'])) return null;
      throw error;
    }
  }

  /** The user behind a request's tokens (`x-stack-auth` header, else its session cookies; a store; or tokens), or null. */
  async getUserFromTokens(tokenStore: TokenStoreInit): Promise<User | null> {
    const store = resolveTokenStore(tokenStore, this.projectId, this.env);
    if (!store || (!store.get().refreshToken && !store.get().accessToken)) return null;
    const session = new Session(store, (rt) => this.api.refreshAccessToken(rt), this.env);
    try {
      const wire = await this.api.op('users.getCurrent', { session });
      const core = {
        ...this.core,
        op: ((id: OperationId, input?: object) => this.api.op(id, { ...input, session } as never)) as AppCore['op'],
        suggestAccessTokenExpired: () => session.markAccessTokenExpired(),
        markSessionInvalid: () => session.markInvalid(),
      };
      return new User(core, wire, 'me');
    } catch (error) {
      if (isKnownErrorOf(error, ['CANNOT_GET_OWN_USER_WITHOUT_USER'])) return null;
      throw error;
    }
  }

  /** The owner of a user API key (`POST /user-api-keys/check`, then `GET /users/{id}`), or null if invalid. */
  async getUserFromApiKey(apiKey: string): Promise<User | null> {
    try {
      const key = await this.core.op('apiKeys.checkUserKey', { body: { api_key: apiKey } });
      return key.type === 'user' && key.user_id ? this.getUserById(key.user_id) : null;
    } catch (error) {
      if (isKnownErrorOf(error, ['API_KEY_NOT_FOUND', 'API_KEY_REVOKED', 'API_KEY_EXPIRED', 'WRONG_API_KEY_TYPE'])) return null;
      throw error;
    }
  }

  /** `GET /users` with paging and filters → `{users, nextCursor}`. */
  async listUsers(
    options: {
      limit?: number;
      cursor?: string;
      orderBy?: 'signed_up_at';
      desc?: boolean;
      query?: string;
      teamId?: string;
      includeAnonymous?: boolean;
    } = {},
  ): Promise<{ users: User[]; nextCursor: string | null }> {
    const res = await this.core.op('users.list', {
      query: {
        limit: options.limit,
        cursor: options.cursor,
        order_by: options.orderBy,
        desc: options.desc,
        query: options.query,
        team_id: options.teamId,
        include_anonymous: options.includeAnonymous,
      },
    });
    return {
      users: res.items.map((u) => new User(this.core, u, u.id)),
      nextCursor: 'pagination' in res ? res.pagination.next_cursor : null,
    };
  }

  /** `POST /users` → the created user. */
  async createUser(
    options: UserUpdate & { primaryEmail?: string | null; password?: string | null; primaryEmailAuthEnabled?: boolean },
  ): Promise<User> {
    const wire = await this.core.op('users.create', { body: userUpdateToWire(options) });
    return new User(this.core, wire, wire.id);
  }

  /** `POST /teams` `{display_name, profile_image_url?, creator_user_id?}`. */
  async createTeam(options: { displayName: string; profileImageUrl?: string | null; creatorUserId?: string }): Promise<Team> {
    const wire = await this.core.op('teams.create', {
      body: dropUndefined({
        display_name: options.displayName,
        profile_image_url: options.profileImageUrl,
        creator_user_id: options.creatorUserId,
      }),
    });
    return new Team(this.core, wire);
  }

  /** `GET /teams` (or a user's teams with `userId`). */
  async listTeams(options: { userId?: string } = {}): Promise<Team[]> {
    const res = await this.core.op('teams.list', { query: { user_id: options.userId } });
    return res.items.map((t) => new Team(this.core, t));
  }

  /** A team by id (lists `GET /teams` and filters, as the official SDK), or null. */
  async getTeam(teamId: string): Promise<Team | null> {
    return (await this.listTeams()).find((t) => t.id === teamId) ?? null;
  }

  /** `POST /emails/send-email` `{user_ids, subject, html | template_id + variables, notification_category_name}`. */
  async sendEmail(options: {
    userIds: string[];
    subject?: string;
    html?: string;
    templateId?: string;
    variables?: Record<string, unknown>;
    notificationCategoryName?: string;
  }): Promise<unknown> {
    return this.core.op('emails.sendEmail', {
      body: dropUndefined({
        user_ids: options.userIds,
        subject: options.subject,
        html: options.html,
        template_id: options.templateId,
        variables: options.variables,
        notification_category_name: options.notificationCategoryName,
      }),
    });
  }

  /** `PATCH /users/{id}`. */
  async updateUser(userId: string, update: UserUpdate): Promise<void> {
    await this.core.op('users.update', { params: { user_id: userId }, body: userUpdateToWire(update) });
  }

  /** The request layer (for calls the SDK has no method for yet). */
  get request(): ApiClient {
    return this.api;
  }
}
