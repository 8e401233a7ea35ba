import type { ClientAppOptions } from './client-app.ts';
import { GatehouseConfigError } from './errors.ts';
import { ServerApp } from './server-app.ts';
import { Session } from './session.ts';
import { memoryTokenStore, type Tokens } from './tokens.ts';

/** Admin app options: a super secret admin key, or a project owner's internal-project session. */
export interface AdminAppOptions extends ClientAppOptions {
  secretServerKey?: string;
  superSecretAdminKey?: string;
  /** The owner's internal-project tokens, sent as `x-stack-admin-access-token` (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/). */
  projectOwnerSession?: Tokens;
  /** With `projectOwnerSession`: how to refresh the owner's access token (an internal ClientApp's session). */
  projectOwnerRefresh?: (refreshToken: string) => Promise<string | null>;
}

/** An internal API key set as created (full values only once). */
export interface InternalApiKey {
  id: string;
  description: string;
  expiresAt: Date | null;
  manuallyRevokedAt: Date | null;
  createdAt: Date;
  publishableClientKey: string | { lastFour: string } | null;
  secretServerKey: string | { lastFour: string } | null;
  superSecretAdminKey: string | { lastFour: string } | null;
}

function keyValue(v: unknown): string | { lastFour: string } | null {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && 'last_four' in v) return { lastFour: String((v as { last_four: unknown }).last_four) };
  return null;
}

function toInternalKey(w: Record<string, any>): InternalApiKey {
  return {
    id: w.id,
    description: w.description,
    expiresAt: w.expires_at_millis == null ? null : new Date(w.expires_at_millis),
    manuallyRevokedAt: w.manually_revoked_at_millis == null ? null : new Date(w.manually_revoked_at_millis),
    createdAt: new Date(w.created_at_millis),
    publishableClientKey: keyValue(w.publishable_client_key),
    secretServerKey: keyValue(w.secret_server_key),
    superSecretAdminKey: keyValue(w.super_secret_admin_key),
  };
}

/**
 * The admin-level app (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/): project settings and configuration, internal API keys,
 * email templates and permission definitions. Authenticates with the super secret admin key or
 * a project owner's session (admin sessions never refresh through OAuth, upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/).
 */
export class AdminApp extends ServerApp {
  constructor(options: AdminAppOptions) {
    if (!options.superSecretAdminKey && !options.projectOwnerSession)
      throw new GatehouseConfigError('No admin key configured: an AdminApp needs superSecretAdminKey or projectOwnerSession.');
    const adminSession = options.projectOwnerSession
      ? new Session(memoryTokenStore(options.projectOwnerSession), options.projectOwnerRefresh ?? (async () => null), {
          now: () => options.environment?.now?.() ?? Date.now(),
        })
      : undefined;
    super(
      { ...options, tokenStore: options.tokenStore === undefined ? null : options.tokenStore },
      {
        accessType: 'admin',
        secretServerKey: options.secretServerKey,
        superSecretAdminKey: options.superSecretAdminKey,
        adminSession,
        fingerprint: {
          secretServerKey: options.secretServerKey ?? null,
          superSecretAdminKey: options.superSecretAdminKey ?? null,
          owner: options.projectOwnerSession?.refreshToken ?? null,
        },
      },
    );
  }

  /** `GET /internal/projects/current` (the admin project object, snake_case as on the wire). */
  getAdminProject(): Promise<Record<string, any>> {
    return this.core.op('projects.getCurrentAdmin');
  }

  /** `PATCH /internal/projects/current` `{display_name, description, config: {...}}` (wire field names). */
  updateProject(update: Record<string, unknown>): Promise<Record<string, any>> {
    return this.core.op('projects.updateCurrent', { body: update });
  }

  /** `DELETE /internal/projects/current`. */
  async deleteProject(): Promise<void> {
    await this.core.op('projects.deleteCurrent', { body: {} });
  }

  /**
   * Merges `override` into the environment-level config override (`config.updateOverride`,
   * `{config_override_string}`). Before the routes table this called `PATCH
   * /internal/config/override`, a path no operation serves (404).
   */
  async updateConfigOverride(override: Record<string, unknown>): Promise<void> {
    await this.core.op('config.updateOverride', {
      params: { level: 'environment' },
      body: { config_override_string: JSON.stringify(override) },
    });
  }

  /** `POST /internal/api-keys`; the result carries the full key values, shown once. */
  async createInternalApiKey(options: {
    description: string;
    expiresAt: Date | null;
    hasPublishableClientKey: boolean;
    hasSecretServerKey: boolean;
    hasSuperSecretAdminKey: boolean;
  }): Promise<InternalApiKey> {
    return toInternalKey(
      await this.core.op('internalApiKeys.create', {
        body: {
          description: options.description,
          expires_at_millis: options.expiresAt?.getTime() ?? null,
          has_publishable_client_key: options.hasPublishableClientKey,
          has_secret_server_key: options.hasSecretServerKey,
          has_super_secret_admin_key: options.hasSuperSecretAdminKey,
        },
      }),
    );
  }

  /** `GET /internal/api-keys` (values as last four characters). */
  async listInternalApiKeys(): Promise<InternalApiKey[]> {
    const res = await this.core.op('internalApiKeys.list');
    return res.items.map(toInternalKey);
  }

  /** `PATCH /internal/api-keys/{id}` `{revoked: true}`. */
  async revokeInternalApiKey(id: string): Promise<void> {
    await this.core.op('internalApiKeys.update', { params: { api_key_id: id }, body: { revoked: true } });
  }

  /** `GET /internal/email-templates`. */
  async listEmailTemplates(): Promise<Record<string, any>[]> {
    return (await this.core.op('emails.listTemplates')).templates;
  }

  /** `PATCH /internal/email-templates/{id}` `{tsx_source}`. */
  async updateEmailTemplate(id: string, tsxSource: string): Promise<void> {
    await this.core.op('emails.updateTemplate', { params: { id }, body: { tsx_source: tsxSource } });
  }

  /** `GET /team-permission-definitions` (or `/project-permission-definitions` with `scope: 'project'`). */
  async listPermissionDefinitions(
    scope: 'team' | 'project' = 'team',
  ): Promise<{ id: string; description: string | null; containedPermissionIds: string[] }[]> {
    const res = await (scope === 'team'
      ? this.core.op('permissions.listTeamDefinitions')
      : this.core.op('permissions.listProjectDefinitions'));
    return res.items.map((p) => ({ id: p.id, description: p.description ?? null, containedPermissionIds: p.contained_permission_ids }));
  }

  /** `POST /{scope}-permission-definitions` `{id, description, contained_permission_ids}`. */
  async createPermissionDefinition(
    scope: 'team' | 'project',
    definition: { id: string; description?: string; containedPermissionIds?: string[] },
  ): Promise<void> {
    const body = {
      id: definition.id,
      description: definition.description,
      contained_permission_ids: definition.containedPermissionIds ?? [],
    };
    await (scope === 'team'
      ? this.core.op('permissions.createTeamDefinition', { body })
      : this.core.op('permissions.createProjectDefinition', { body }));
  }

  /** `DELETE /{scope}-permission-definitions/{id}`. */
  async deletePermissionDefinition(scope: 'team' | 'project', id: string): Promise<void> {
    const params = { permission_id: id };
    await (scope === 'team'
      ? this.core.op('permissions.deleteTeamDefinition', { params, body: {} })
      : this.core.op('permissions.deleteProjectDefinition', { params, body: {} }));
  }
}
