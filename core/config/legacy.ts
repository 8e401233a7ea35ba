import { isBuiltInOAuthProviderId, type OAuthProviderConfig, type ProjectConfig } from './project-config.ts';
import { renderConfig, type ConfigOverride, type RenderedConfig } from './format.ts';
import { DEFAULT_EMAIL_THEME_ID } from './schema.ts';
import { PROJECT_FLAGS, type ProjectFlags } from './project-flags.ts';

/** The value at a dotted path of a rendered config. */
function valueAt(r: RenderedConfig, path: string): unknown {
  let node: unknown = r;
  for (const seg of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[seg];
  return node;
}

/**
 * The legacy project `config` object (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/, `/projects/current`) as a view of, and a
 * writer to, the configuration model. The mapping follows upstream's projects CRUD
 * (`renderedOrganizationConfigToProjectCrud` and its update handler): the on/off flags map as
 * project-flags.ts lists them (e.g. `magic_link_enabled` is `auth.otp.allowSignIn`), `oauth_providers[]` is `auth.oauth.providers.<id>`,
 * `domains[]` is `domains.trustedDomains.<n>`.
 */
export function renderedToLegacy(r: RenderedConfig): ProjectConfig {
  const ids = (record: Record<string, unknown>) => Object.keys(record);
  const server = r.emails.server;
  return {
    ...(Object.fromEntries(PROJECT_FLAGS.map((f) => [f.key, valueAt(r, f.path)])) as ProjectFlags),
    teamCreatorDefaultPermissions: ids(r.rbac.defaultPermissions.teamCreator),
    teamMemberDefaultPermissions: ids(r.rbac.defaultPermissions.teamMember),
    userDefaultPermissions: ids(r.rbac.defaultPermissions.signUp),
    domains: Object.values(r.domains.trustedDomains as Record<string, { baseUrl?: string; handlerPath: string }>)
      .filter((d) => typeof d.baseUrl === 'string')
      .map((d) => ({ domain: d.baseUrl!, handlerPath: d.handlerPath })),
    emailThemeId: r.emails.selectedThemeId === DEFAULT_EMAIL_THEME_ID ? null : r.emails.selectedThemeId,
    oauthProviders: Object.entries(r.auth.oauth.providers as Record<string, Record<string, any>>).map(
      ([id, p]): OAuthProviderConfig => ({
        id,
        enabled: p.allowSignIn,
        type: p.isShared ? 'shared' : 'standard',
        ...(p.clientId !== undefined ? { clientId: p.clientId } : {}),
        ...(p.clientSecret !== undefined ? { clientSecret: p.clientSecret } : {}),
        ...(p.facebookConfigId !== undefined ? { facebookConfigId: p.facebookConfigId } : {}),
        ...(p.microsoftTenantId !== undefined ? { microsoftTenantId: p.microsoftTenantId } : {}),
        ...(p.issuerUrl !== undefined ? { issuerUrl: p.issuerUrl } : {}),
        ...(p.displayName !== undefined ? { displayName: p.displayName } : {}),
        ...(p.appleBundleIds !== undefined ? { appleBundleIds: p.appleBundleIds } : {}),
      }),
    ),
    oauthAccountMergeStrategy: r.auth.oauth.accountMergeStrategy,
    emailConfig: server.isShared
      ? { type: 'shared' }
      : {
          type: 'standard',
          host: server.host ?? '',
          port: server.port ?? 0,
          username: server.username ?? '',
          password: server.password ?? '',
          senderName: server.senderName ?? '',
          senderEmail: server.senderEmail ?? '',
        },
    rateLimits: {
      enabled: r.rateLimits.enabled,
      overrides: Object.fromEntries(
        Object.entries(r.rateLimits.rules as Record<string, { limit?: number; windowSeconds?: number }>)
          .filter(([, rule]) => typeof rule.limit === 'number' && typeof rule.windowSeconds === 'number')
          .map(([id, rule]) => [id, { limit: rule.limit!, windowSeconds: rule.windowSeconds! }]),
      ),
    },
    branding: {
      accentLight: r.branding.accentColorLight,
      accentDark: r.branding.accentColorDark,
      termsUrl: r.branding.termsOfServiceUrl,
      privacyUrl: r.branding.privacyPolicyUrl,
    },
    botChallengeSiteKey: r.botChallenge.turnstileSiteKey ?? null,
    oidc: {
      enabled: r.oidc.enabled,
      dynamicClientRegistration: r.oidc.dynamicClientRegistration,
      scopes: [...r.oidc.scopes],
      claimsTemplate: { ...r.oidc.claimsTemplate },
    },
  };
}

const asSet = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, true]));

/** The override keys that carry one legacy field, as a dotted-key patch. */
function fieldPatch<K extends keyof ProjectConfig>(key: K, c: ProjectConfig): ConfigOverride {
  const flag = PROJECT_FLAGS.find((f) => f.key === key);
  if (flag) return { [flag.path]: c[flag.key] };
  switch (key) {
    case 'teamCreatorDefaultPermissions':
      return { 'rbac.defaultPermissions.teamCreator': asSet(c.teamCreatorDefaultPermissions) };
    case 'teamMemberDefaultPermissions':
      return { 'rbac.defaultPermissions.teamMember': asSet(c.teamMemberDefaultPermissions) };
    case 'userDefaultPermissions':
      return { 'rbac.defaultPermissions.signUp': asSet(c.userDefaultPermissions) };
    case 'domains':
      return {
        'domains.trustedDomains': Object.fromEntries(
          c.domains.map((d, i) => [String(i), { baseUrl: d.domain, handlerPath: d.handlerPath }]),
        ),
      };
    case 'emailThemeId':
      return { 'emails.selectedThemeId': c.emailThemeId ?? DEFAULT_EMAIL_THEME_ID };
    case 'oauthProviders':
      return {
        'auth.oauth.providers': Object.fromEntries(
          c.oauthProviders.map((p) => [
            p.id,
            {
              ...(isBuiltInOAuthProviderId(p.id) ? { type: p.id } : {}),
              allowSignIn: p.enabled,
              allowConnectedAccounts: true,
              isShared: p.type === 'shared',
              ...(p.clientId !== undefined ? { clientId: p.clientId } : {}),
              ...(p.clientSecret !== undefined ? { clientSecret: p.clientSecret } : {}),
              ...(p.facebookConfigId !== undefined ? { facebookConfigId: p.facebookConfigId } : {}),
              ...(p.microsoftTenantId !== undefined ? { microsoftTenantId: p.microsoftTenantId } : {}),
              ...(p.issuerUrl !== undefined ? { issuerUrl: p.issuerUrl } : {}),
              ...(p.displayName !== undefined ? { displayName: p.displayName } : {}),
              ...(p.appleBundleIds !== undefined ? { appleBundleIds: p.appleBundleIds } : {}),
            },
          ]),
        ),
      };
    case 'oauthAccountMergeStrategy':
      return { 'auth.oauth.accountMergeStrategy': c.oauthAccountMergeStrategy };
    case 'emailConfig': {
      const e = c.emailConfig;
      return {
        'emails.server':
          e.type === 'shared'
            ? { isShared: true }
            : {
                isShared: false,
                host: e.host,
                port: e.port,
                username: e.username,
                password: e.password,
                senderName: e.senderName,
                senderEmail: e.senderEmail,
              },
      };
    }
    case 'rateLimits':
      return {
        'rateLimits.enabled': c.rateLimits.enabled,
        'rateLimits.rules': Object.fromEntries(
          Object.entries(c.rateLimits.overrides).map(([id, rule]) => [id, { limit: rule.limit, windowSeconds: rule.windowSeconds }]),
        ),
      };
    case 'branding':
      return {
        'branding.accentColorLight': c.branding.accentLight,
        'branding.accentColorDark': c.branding.accentDark,
        'branding.termsOfServiceUrl': c.branding.termsUrl,
        'branding.privacyPolicyUrl': c.branding.privacyUrl,
      };
    case 'botChallengeSiteKey':
      return { 'botChallenge.turnstileSiteKey': c.botChallengeSiteKey };
    case 'oidc':
      return {
        'oidc.enabled': c.oidc.enabled,
        'oidc.dynamicClientRegistration': c.oidc.dynamicClientRegistration,
        'oidc.scopes': c.oidc.scopes,
        'oidc.claimsTemplate': c.oidc.claimsTemplate,
      };
    default:
      return {};
  }
}

/**
 * The environment-level patch that turns the legacy config `prev` into `next`: one entry per
 * legacy field that changed (lists replace their whole record, as the legacy API replaces lists).
 */
export function legacyChangeToPatch(prev: ProjectConfig, next: ProjectConfig): ConfigOverride {
  const patch: ConfigOverride = {};
  for (const key of Object.keys(next) as (keyof ProjectConfig)[]) {
    if (JSON.stringify(prev[key]) !== JSON.stringify(next[key])) Object.assign(patch, fieldPatch(key, next));
  }
  return patch;
}

/** The override that renders as `config` (only the fields that differ from the schema defaults). */
export function legacyToOverride(config: ProjectConfig): ConfigOverride {
  return legacyChangeToPatch(renderedToLegacy(renderConfig([])), config);
}
