import * as v from 'valibot';
import { component } from '../operations/output.ts';
import { isValidDomainUrl, isProductionSafeDomainUrl } from './domains.ts';
import { defaultRateLimitsConfig, RATE_LIMIT_RULES, type RateLimitRule, type RateLimitsConfig } from './rate-limits.ts';
import {
  ADMIN_FLAGS,
  CLIENT_FLAGS,
  defaultProjectFlags,
  flagOutputEntries,
  flagsToWire,
  flagUpdateEntries,
  PROJECT_FLAGS,
  type ProjectFlags,
} from './project-flags.ts';

// Defined with the config model; re-exported here for the legacy view's users.
export { DEFAULT_EMAIL_THEME_ID, OAUTH_PROVIDER_IDS } from './schema.ts';
import { DEFAULT_EMAIL_THEME_ID, OAUTH_PROVIDER_IDS } from './schema.ts';
export type OAuthProviderId = (typeof OAUTH_PROVIDER_IDS)[number];

/** Id of a generic OpenID Connect provider configured by issuer: not a built-in id. */
export const GENERIC_OAUTH_PROVIDER_ID = /^[a-z0-9-]{1,32}$/;

/** True when `id` is one of the twelve built-in provider ids. */
export function isBuiltInOAuthProviderId(id: string): id is OAuthProviderId {
  return (OAUTH_PROVIDER_IDS as readonly string[]).includes(id);
}

/**
 * One configured OAuth provider. `type: 'shared'` on a self-hosted server means Gatehouse's
 * built-in development OpenID provider stands in (refused in production mode); `standard` uses
 * the project's own client credentials. A generic provider (an id outside the built-in list)
 * is any OpenID Connect provider found through `issuerUrl`'s discovery document.
 */
export interface OAuthProviderConfig {
  id: string;
  enabled: boolean;
  type: 'shared' | 'standard';
  clientId?: string;
  clientSecret?: string;
  facebookConfigId?: string;
  microsoftTenantId?: string;
  /** Generic OpenID Connect providers only: the issuer identifier (OIDC Discovery 1.0 §4). */
  issuerUrl?: string;
  /** Generic providers only: the name shown on buttons (default: the id). */
  displayName?: string;
  /** Apple only: the Bundle IDs of native apps whose identity tokens `/auth/oauth/callback/apple/native` accepts. */
  appleBundleIds?: string[];
}

export type EmailConfig =
  | { type: 'shared' }
  | { type: 'standard'; host: string; port: number; username: string; password: string; senderName: string; senderEmail: string };

export interface TrustedDomain {
  domain: string;
  handlerPath: string;
}

/**
 * How the hosted pages and components look for a project (a Gatehouse extension, set in the
 * dashboard): accent colours for light and dark mode (`#rrggbb`) and the terms-of-service and
 * privacy-policy links shown under sign-in and sign-up. The logo is the project's `logo_url`.
 */
export interface BrandingConfig {
  accentLight: string | null;
  accentDark: string | null;
  termsUrl: string | null;
  privacyUrl: string | null;
}

/**
 * A project's configuration (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ Project "Config"), in TypeScript names: the
 * on/off flags of project-flags.ts (each documented by its config-model leaf) and the structured
 * settings below. A view of the config model (legacy.ts); the wire form (snake_case) is produced
 * by `configToWire`.
 */
export interface ProjectConfig extends ProjectFlags {
  teamCreatorDefaultPermissions: string[];
  teamMemberDefaultPermissions: string[];
  userDefaultPermissions: string[];
  domains: TrustedDomain[];
  emailThemeId: string | null;
  oauthProviders: OAuthProviderConfig[];
  oauthAccountMergeStrategy: 'link_method' | 'raise_error' | 'allow_duplicates';
  emailConfig: EmailConfig;
  /**
   * Gatehouse extension: throttling, on by default with the limits of
   * core/throttle/limits.ts; wire key `rate_limits` (accepted on update, docs/security.md).
   */
  rateLimits: RateLimitsConfig;
  /** Gatehouse extension: the hosted pages' colours and legal links. */
  branding: BrandingConfig;
  /**
   * Gatehouse extension: the Cloudflare Turnstile site key (`botChallenge.turnstileSiteKey`),
   * or null when the project has no bot challenge; wire key `bot_challenge_site_key` (client view too:
   * the sign-in pages render the widget with it).
   */
  botChallengeSiteKey: string | null;
  /** Gatehouse extension: the identity provider (`oidc.*`, issue 31; docs/oauth-provider.md). */
  oidc: OidcProviderConfig;
}

/** The identity provider's settings (`oidc.enabled`, `oidc.dynamicClientRegistration`, `oidc.scopes`, `oidc.claimsTemplate`). */
export interface OidcProviderConfig {
  enabled: boolean;
  dynamicClientRegistration: 'off' | 'open' | 'initial_access_token';
  /** Scopes beyond openid, profile, email and offline_access. */
  scopes: string[];
  /** Custom claims: claim name → template over the user, their team and permissions (core/claims-template). */
  claimsTemplate: Record<string, string>;
}

/** Defaults of a new project (upstream apps/backend/prisma/seed.ts "New-project defaults"). */
export function defaultProjectConfig(): ProjectConfig {
  return {
    ...defaultProjectFlags(),
    teamCreatorDefaultPermissions: ['team_admin'],
    teamMemberDefaultPermissions: ['team_member'],
    userDefaultPermissions: [],
    domains: [],
    emailThemeId: null,
    oauthProviders: [],
    oauthAccountMergeStrategy: 'link_method',
    emailConfig: { type: 'shared' },
    rateLimits: defaultRateLimitsConfig(),
    branding: { accentLight: null, accentDark: null, termsUrl: null, privacyUrl: null },
    botChallengeSiteKey: null,
    oidc: { enabled: false, dynamicClientRegistration: 'off', scopes: [], claimsTemplate: {} },
  };
}

/** Parses a stored config, filling any key a newer version added with its default. */
export function parseStoredConfig(json: string): ProjectConfig {
  return { ...defaultProjectConfig(), ...(JSON.parse(json) as Partial<ProjectConfig>) };
}

// ── Wire form ─────────────────────────────────────────────────────────────────────────────

const HANDLER_PATH_MESSAGE = 'Handler path must start with /';

const DomainSchema = v.strictObject({
  domain: v.pipe(
    v.string(),
    v.check(
      isValidDomainUrl,
      'must be a valid URL or wildcard domain pattern (http or https, no spaces, no wildcards in credentials, path, query or hash)',
    ),
  ),
  handler_path: v.optional(v.pipe(v.string(), v.startsWith('/', HANDLER_PATH_MESSAGE)), '/handler'),
});

const OAuthProviderSchema = v.pipe(
  v.strictObject({
    id: v.pipe(v.string(), v.regex(GENERIC_OAUTH_PROVIDER_ID, 'must be a built-in provider id or match ^[a-z0-9-]{1,32}$')),
    type: v.picklist(['shared', 'standard']),
    enabled: v.optional(v.boolean()),
    client_id: v.optional(v.string()),
    client_secret: v.optional(v.string()),
    facebook_config_id: v.optional(v.string()),
    microsoft_tenant_id: v.optional(v.string()),
    issuer_url: v.optional(
      v.pipe(
        v.string(),
        v.url('must be a valid URL'),
        v.check((u) => /^https?:\/\//.test(u), 'must be an http(s) URL'),
      ),
    ),
    display_name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64))),
    apple_bundle_ids: v.optional(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(255)))),
  }),
  v.check(
    (p) => p.type !== 'standard' || (!!p.client_id && !!p.client_secret),
    'Standard OAuth providers require clientId and clientSecret',
  ),
  v.check(
    (p) => isBuiltInOAuthProviderId(p.id) || p.type === 'shared' || !!p.issuer_url,
    'A generic OpenID Connect provider (an id outside the built-in list) requires issuer_url',
  ),
  v.check(
    (p) => !isBuiltInOAuthProviderId(p.id) || (p.issuer_url === undefined && p.display_name === undefined),
    'issuer_url and display_name are only for generic OpenID Connect providers',
  ),
  v.check((p) => p.apple_bundle_ids === undefined || p.id === 'apple', 'apple_bundle_ids is only for the apple provider'),
);

const EmailConfigSchema = v.variant('type', [
  v.strictObject({ type: v.literal('shared') }),
  v.strictObject({
    type: v.literal('standard'),
    host: v.pipe(v.string(), v.minLength(1, 'host is required for a standard email config')),
    port: v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0, 'port must be between 0 and 65535'),
      v.maxValue(65535, 'port must be between 0 and 65535'),
    ),
    username: v.pipe(v.string(), v.minLength(1, 'username is required for a standard email config')),
    password: v.pipe(v.string(), v.minLength(1, 'password is required for a standard email config')),
    sender_name: v.pipe(v.string(), v.minLength(1, 'sender name is required for a standard email config')),
    sender_email: v.pipe(v.string(), v.email('must be a valid email')),
  }),
]);

const PermissionRefSchema = v.strictObject({ id: v.string() });

const RateLimitSchema = v.strictObject({
  limit: v.pipe(v.number(), v.integer(), v.minValue(1, 'limit must be at least 1'), v.maxValue(1_000_000, 'limit must be at most 1000000')),
  window_seconds: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(1, 'window_seconds must be at least 1'),
    v.maxValue(604_800, 'window_seconds must be at most 604800 (7 days)'),
  ),
});

/** `rate_limits`: `enabled`, and per rule `{limit, window_seconds}` (null restores the default). */
const RateLimitsUpdateSchema = v.strictObject({
  enabled: v.optional(v.boolean()),
  ...(Object.fromEntries(RATE_LIMIT_RULES.map((rule) => [rule, v.optional(v.nullable(RateLimitSchema))])) as Record<
    RateLimitRule,
    v.OptionalSchema<v.NullableSchema<typeof RateLimitSchema, undefined>, undefined>
  >),
});

const HexColorSchema = v.nullable(v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour in the form #rrggbb')));
const LegalUrlSchema = v.nullable(v.pipe(v.string(), v.maxLength(2048), v.regex(/^https?:\/\/[^\s]+$/, 'must be an http(s) URL')));
const BrandingSchema = v.strictObject({
  accent_color_light: v.optional(HexColorSchema),
  accent_color_dark: v.optional(HexColorSchema),
  terms_of_service_url: v.optional(LegalUrlSchema),
  privacy_policy_url: v.optional(LegalUrlSchema),
});

/** The wire `config` object accepted by project create and update (every key optional). */
export const ConfigUpdateSchema = v.strictObject({
  ...flagUpdateEntries(PROJECT_FLAGS),
  team_creator_default_permissions: v.optional(v.array(PermissionRefSchema)),
  team_member_default_permissions: v.optional(v.array(PermissionRefSchema)),
  user_default_permissions: v.optional(v.array(PermissionRefSchema)),
  domains: v.optional(v.array(DomainSchema)),
  email_theme: v.optional(v.nullable(v.string())),
  oauth_providers: v.optional(v.array(OAuthProviderSchema)),
  oauth_account_merge_strategy: v.optional(v.picklist(['link_method', 'raise_error', 'allow_duplicates'])),
  email_config: v.optional(EmailConfigSchema),
  rate_limits: v.optional(RateLimitsUpdateSchema),
  branding: v.optional(BrandingSchema),
});
export type ConfigUpdate = v.InferOutput<typeof ConfigUpdateSchema>;

/** Applies a wire config update onto a config; keys absent from `update` keep their value. */
export function applyConfigUpdate(config: ProjectConfig, update: ConfigUpdate): ProjectConfig {
  const next: ProjectConfig = { ...config };
  const set = <K extends keyof ProjectConfig>(key: K, value: ProjectConfig[K] | undefined) => {
    if (value !== undefined) next[key] = value;
  };
  for (const flag of PROJECT_FLAGS) set(flag.key, update[flag.wire]);
  set(
    'teamCreatorDefaultPermissions',
    update.team_creator_default_permissions?.map((p) => p.id),
  );
  set(
    'teamMemberDefaultPermissions',
    update.team_member_default_permissions?.map((p) => p.id),
  );
  set(
    'userDefaultPermissions',
    update.user_default_permissions?.map((p) => p.id),
  );
  set(
    'domains',
    update.domains?.map((d) => ({ domain: d.domain, handlerPath: d.handler_path })),
  );
  set('emailThemeId', update.email_theme);
  set(
    'oauthProviders',
    update.oauth_providers?.map((p) => ({
      id: p.id,
      enabled: p.enabled ?? true,
      type: p.type,
      ...(p.client_id !== undefined ? { clientId: p.client_id } : {}),
      ...(p.client_secret !== undefined ? { clientSecret: p.client_secret } : {}),
      ...(p.facebook_config_id !== undefined ? { facebookConfigId: p.facebook_config_id } : {}),
      ...(p.microsoft_tenant_id !== undefined ? { microsoftTenantId: p.microsoft_tenant_id } : {}),
      ...(p.issuer_url !== undefined ? { issuerUrl: p.issuer_url } : {}),
      ...(p.display_name !== undefined ? { displayName: p.display_name } : {}),
      ...(p.apple_bundle_ids !== undefined ? { appleBundleIds: p.apple_bundle_ids } : {}),
    })),
  );
  set('oauthAccountMergeStrategy', update.oauth_account_merge_strategy);
  set(
    'emailConfig',
    update.email_config &&
      (update.email_config.type === 'shared'
        ? { type: 'shared' }
        : {
            type: 'standard',
            host: update.email_config.host,
            port: update.email_config.port,
            username: update.email_config.username,
            password: update.email_config.password,
            senderName: update.email_config.sender_name,
            senderEmail: update.email_config.sender_email,
          }),
  );
  if (update.rate_limits) {
    const current = config.rateLimits ?? defaultRateLimitsConfig();
    const overrides = { ...current.overrides };
    for (const rule of RATE_LIMIT_RULES) {
      const value = update.rate_limits[rule];
      if (value === null) delete overrides[rule];
      else if (value !== undefined) overrides[rule] = { limit: value.limit, windowSeconds: value.window_seconds };
    }
    next.rateLimits = { enabled: update.rate_limits.enabled ?? current.enabled, overrides };
  }
  if (update.branding) {
    const b = update.branding;
    next.branding = {
      accentLight: b.accent_color_light === undefined ? config.branding.accentLight : (b.accent_color_light?.toLowerCase() ?? null),
      accentDark: b.accent_color_dark === undefined ? config.branding.accentDark : (b.accent_color_dark?.toLowerCase() ?? null),
      termsUrl: b.terms_of_service_url === undefined ? config.branding.termsUrl : b.terms_of_service_url,
      privacyUrl: b.privacy_policy_url === undefined ? config.branding.privacyUrl : b.privacy_policy_url,
    };
  }
  return next;
}

/**
 * Checks the rules that span several fields (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts): a production-mode project may
 * only trust HTTPS, non-localhost, non-IP domains (`allow_localhost` may stay on, as upstream allows).
 *
 * @returns human-readable problems (empty when the config is acceptable).
 */
export function configProblems(config: ProjectConfig, isProductionMode: boolean): string[] {
  const problems: string[] = [];
  const ids = config.oauthProviders.map((p) => p.id);
  if (new Set(ids).size !== ids.length) problems.push('oauth_providers must not list one provider id twice');
  if (isProductionMode) {
    // allow_localhost stays settable in production mode, as upstream allows.
    for (const p of config.oauthProviders) {
      if (p.type === 'shared')
        problems.push(
          `OAuth provider ${p.id} uses shared keys (the built-in development provider), which is not allowed in production mode`,
        );
    }
    for (const d of config.domains) {
      if (!isProductionSafeDomainUrl(d.domain)) {
        problems.push(
          `domain ${d.domain} is not allowed in production mode (it must use HTTPS and must not be localhost or an IP address)`,
        );
      }
    }
  }
  return problems;
}

const PermissionRefsOutput = v.array(v.strictObject({ id: v.string() }));
const DomainsOutput = v.array(v.strictObject({ domain: v.string(), handler_path: v.string() }));
const EnabledProvidersOutput = v.array(v.strictObject({ id: v.string(), display_name: v.optional(v.string()) }));
const ALLOW_LOCALHOST = PROJECT_FLAGS.filter((f) => f.key === 'allowLocalhost');

/** `enabled_oauth_providers` of both views: the enabled providers' ids (and a generic provider's button label). */
function enabledProvidersToWire(config: ProjectConfig) {
  return config.oauthProviders
    .filter((p) => p.enabled)
    .map((p) => ({ id: p.id, ...(p.displayName !== undefined ? { display_name: p.displayName } : {}) }));
}

/** `domains` of both views. */
function domainsToWire(config: ProjectConfig) {
  return config.domains.map((d) => ({ domain: d.domain, handler_path: d.handlerPath }));
}

/** Output schema of `configToWire` (the admin view of a project's config). */
export const AdminProjectConfigOutput = component(
  'AdminProjectConfig',
  v.strictObject({
    id: v.string(),
    ...flagOutputEntries(ADMIN_FLAGS),
    oauth_account_merge_strategy: v.picklist(['link_method', 'raise_error', 'allow_duplicates']),
    oauth_providers: v.array(
      v.strictObject({
        id: v.string(),
        provider_config_id: v.pipe(
          v.string(),
          v.description("The provider's key in the config (`auth.oauth.providers.<key>`; upstream `provider_config_id`)."),
        ),
        type: v.picklist(['shared', 'standard']),
        enabled: v.boolean(),
        client_id: v.optional(v.string()),
        client_secret: v.optional(v.string()),
        facebook_config_id: v.optional(v.string()),
        microsoft_tenant_id: v.optional(v.string()),
        issuer_url: v.optional(v.string()),
        display_name: v.optional(v.string()),
        apple_bundle_ids: v.optional(v.array(v.string())),
      }),
    ),
    enabled_oauth_providers: EnabledProvidersOutput,
    email_config: v.variant('type', [
      v.strictObject({ type: v.literal('shared') }),
      v.strictObject({
        type: v.literal('standard'),
        host: v.string(),
        port: v.number(),
        username: v.string(),
        password: v.string(),
        sender_name: v.string(),
        sender_email: v.string(),
      }),
    ]),
    email_theme: v.string(),
    domains: DomainsOutput,
    team_creator_default_permissions: PermissionRefsOutput,
    team_member_default_permissions: PermissionRefsOutput,
    user_default_permissions: PermissionRefsOutput,
    branding: v.strictObject({
      accent_color_light: v.nullable(v.string()),
      accent_color_dark: v.nullable(v.string()),
      terms_of_service_url: v.nullable(v.string()),
      privacy_policy_url: v.nullable(v.string()),
    }),
  }),
);

/** Output schema of `configToClientWire`. */
export const ClientProjectConfigOutput = component(
  'ClientProjectConfig',
  v.strictObject({
    ...flagOutputEntries(CLIENT_FLAGS),
    enabled_oauth_providers: EnabledProvidersOutput,
    ...flagOutputEntries(ALLOW_LOCALHOST),
    domains: DomainsOutput,
    bot_challenge_site_key: v.pipe(
      v.nullable(v.string()),
      v.description('Gatehouse: the Cloudflare Turnstile site key, or null when the project has no bot challenge.'),
    ),
  }),
);

/** The admin wire form of a config (upstream apps/backend/prisma/seed.ts "New-project defaults"). */
export function configToWire(config: ProjectConfig, projectId: string) {
  return {
    id: projectId,
    ...flagsToWire(ADMIN_FLAGS, config),
    oauth_account_merge_strategy: config.oauthAccountMergeStrategy,
    oauth_providers: config.oauthProviders.map((p) => ({
      id: p.id,
      provider_config_id: p.id,
      type: p.type,
      enabled: p.enabled,
      ...(p.clientId !== undefined ? { client_id: p.clientId } : {}),
      ...(p.clientSecret !== undefined ? { client_secret: p.clientSecret } : {}),
      ...(p.facebookConfigId !== undefined ? { facebook_config_id: p.facebookConfigId } : {}),
      ...(p.microsoftTenantId !== undefined ? { microsoft_tenant_id: p.microsoftTenantId } : {}),
      ...(p.issuerUrl !== undefined ? { issuer_url: p.issuerUrl } : {}),
      ...(p.displayName !== undefined ? { display_name: p.displayName } : {}),
      ...(p.appleBundleIds !== undefined ? { apple_bundle_ids: p.appleBundleIds } : {}),
    })),
    enabled_oauth_providers: enabledProvidersToWire(config),
    email_config:
      config.emailConfig.type === 'shared'
        ? { type: 'shared' as const }
        : {
            type: 'standard' as const,
            host: config.emailConfig.host,
            port: config.emailConfig.port,
            username: config.emailConfig.username,
            password: config.emailConfig.password,
            sender_name: config.emailConfig.senderName,
            sender_email: config.emailConfig.senderEmail,
          },
    // Never null on the wire: a project that chose no theme uses the default (as upstream reports it).
    email_theme: config.emailThemeId ?? DEFAULT_EMAIL_THEME_ID,
    domains: domainsToWire(config),
    team_creator_default_permissions: config.teamCreatorDefaultPermissions.map((id) => ({ id })),
    team_member_default_permissions: config.teamMemberDefaultPermissions.map((id) => ({ id })),
    user_default_permissions: config.userDefaultPermissions.map((id) => ({ id })),
    branding: {
      accent_color_light: config.branding.accentLight,
      accent_color_dark: config.branding.accentDark,
      terms_of_service_url: config.branding.termsUrl,
      privacy_policy_url: config.branding.privacyUrl,
    },
  };
}

/** The client wire form of a config (`GET /projects/current`, upstream apps/backend/prisma/seed.ts). */
export function configToClientWire(config: ProjectConfig) {
  return {
    ...flagsToWire(CLIENT_FLAGS, config),
    enabled_oauth_providers: enabledProvidersToWire(config),
    // The official SDK reads this to decide whether a localhost redirect target is trusted.
    ...flagsToWire(ALLOW_LOCALHOST, config),
    domains: domainsToWire(config),
    bot_challenge_site_key: config.botChallengeSiteKey ?? null,
  };
}
