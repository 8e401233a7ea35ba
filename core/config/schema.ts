import * as v from 'valibot';
import { claimsTemplateProblem } from '../lib/claims-template.ts';
import { isValidDomainUrl } from './domains.ts';
import { RATE_LIMIT_RULES } from './rate-limits.ts';
import { SignUpRuleSchema } from './sign-up-rule.ts';

/**
 * Stack's configuration schema (upstream `https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/config/schema.ts`): one tree
 * of the keys a project can configure, each leaf a valibot schema with its default (what an unset
 * key renders as) and a doc line, each node with the override levels that may set it.
 *
 * Levels, merged in this order onto the defaults (upstream `config/README.md`): `project`
 * (shared by every branch), `branch` (`main`; what `config push` writes), `environment` (the
 * deployment's own values: secrets, trusted domains, email server, OAuth credentials).
 */
export const CONFIG_LEVELS = ['project', 'branch', 'environment'] as const;
export type ConfigLevel = (typeof CONFIG_LEVELS)[number];

export type ConfigNode =
  | { kind: 'object'; fields: Record<string, ConfigNode>; levels?: readonly ConfigLevel[]; doc?: string }
  | { kind: 'record'; keyPattern: RegExp; value: ConfigNode; levels?: readonly ConfigLevel[]; doc?: string }
  | { kind: 'leaf'; schema: v.GenericSchema; default: unknown; levels?: readonly ConfigLevel[]; doc: string };

const ALL: readonly ConfigLevel[] = ['project', 'branch', 'environment'];
const BRANCH: readonly ConfigLevel[] = ['branch', 'environment'];
const ENV: readonly ConfigLevel[] = ['environment'];

/** Ids a developer chooses (stores, items, products, themes): upstream `userSpecifiedIdSchema`. */
export const USER_SPECIFIED_ID = /^[a-zA-Z0-9_-]+$/;
/** Permission ids in records; `$`-prefixed ids are system permissions (upstream `permissionRegex`). */
const PERMISSION_ID = /^\$?[a-z0-9_:-]+$/;
const CUSTOM_PERMISSION_ID = /^[a-z0-9_:-]+$/;
const PROVIDER_KEY = /^[a-z0-9_-]{1,64}$/;
const ANY_KEY = /^[^.]+$/;

/** Upstream's "Default Light" email theme id: the theme used when none is selected (the wire `email_theme` of a project that chose none). */
export const DEFAULT_EMAIL_THEME_ID = '1df07ae6-abf3-4a40-83a5-a1a2cbe336ac';

const obj = (fields: Record<string, ConfigNode>, levels?: readonly ConfigLevel[], doc?: string): ConfigNode => ({
  kind: 'object',
  fields,
  ...(levels ? { levels } : {}),
  ...(doc ? { doc } : {}),
});
const rec = (keyPattern: RegExp, value: ConfigNode, levels?: readonly ConfigLevel[], doc?: string): ConfigNode => ({
  kind: 'record',
  keyPattern,
  value,
  ...(levels ? { levels } : {}),
  ...(doc ? { doc } : {}),
});
const leaf = (schema: v.GenericSchema, dflt: unknown, doc: string, levels?: readonly ConfigLevel[]): ConfigNode => ({
  kind: 'leaf',
  schema,
  default: dflt,
  doc,
  ...(levels ? { levels } : {}),
});

const bool = (dflt: boolean, doc: string, levels?: readonly ConfigLevel[]) => leaf(v.boolean('must be a boolean'), dflt, doc, levels);
const optStr = (doc: string, levels?: readonly ConfigLevel[]) => leaf(v.string('must be a string'), undefined, doc, levels);
const trueOnly = leaf(v.literal(true, 'must be true (use null to remove)'), undefined, 'Present (true) when included.');
/** Loosely typed data kept as given (payments shapes, sign-up rule conditions). */
const data = (doc: string) => leaf(v.record(v.string(), v.unknown(), 'must be an object'), undefined, doc);

/** The twelve built-in social sign-in provider ids (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/). */
export const OAUTH_PROVIDER_IDS = [
  'google',
  'github',
  'microsoft',
  'spotify',
  'facebook',
  'discord',
  'gitlab',
  'bitbucket',
  'linkedin',
  'apple',
  'x',
  'twitch',
] as const;
const OAUTH_PROVIDER_TYPES = OAUTH_PROVIDER_IDS;

/** The whole schema. Unset leaves render as their `default` (absent when `undefined`). */
export const CONFIG_SCHEMA: ConfigNode = obj({
  sourceOfTruth: leaf(
    v.looseObject({ type: v.picklist(['hosted', 'neon', 'postgres'], 'must be hosted, neon or postgres') }),
    { type: 'hosted' },
    'Where user data lives; Gatehouse supports `hosted` only.',
    ['project'],
  ),
  project: obj(
    {
      requirePublishableClientKey: bool(
        false,
        'Client calls must carry a publishable client key (upstream apps/backend/src/route-handlers/smart-request.tsx step 6).',
      ),
    },
    ALL,
  ),
  rbac: obj(
    {
      permissions: rec(
        CUSTOM_PERMISSION_ID,
        obj({
          description: optStr('What the permission allows.'),
          scope: leaf(v.picklist(['team', 'project'], 'must be team or project'), undefined, 'Team or project permission.'),
          containedPermissionIds: rec(PERMISSION_ID, trueOnly, undefined, 'Permissions this one includes.'),
        }),
        undefined,
        'Permission definitions by id.',
      ),
      defaultPermissions: obj({
        teamCreator: rec(PERMISSION_ID, trueOnly, undefined, "Granted to a team's creator."),
        teamMember: rec(PERMISSION_ID, trueOnly, undefined, 'Granted to each team member.'),
        signUp: rec(PERMISSION_ID, trueOnly, undefined, 'Project permissions granted at sign-up.'),
      }),
    },
    BRANCH,
  ),
  apiKeys: obj(
    {
      enabled: obj({
        team: bool(false, 'Teams may create API keys.'),
        user: bool(false, 'Users may create API keys.'),
      }),
    },
    BRANCH,
  ),
  teams: obj(
    {
      createPersonalTeamOnSignUp: bool(false, 'Create a personal team for each new user.'),
      allowClientTeamCreation: bool(false, 'Client calls may create teams.'),
    },
    BRANCH,
  ),
  users: obj(
    {
      allowClientUserDeletion: bool(false, 'Users may delete their own account from the client.'),
    },
    BRANCH,
  ),
  onboarding: obj(
    {
      requireEmailVerification: bool(false, 'Users with an unverified primary email are restricted.'),
    },
    BRANCH,
  ),
  domains: obj(
    {
      allowLocalhost: bool(false, 'Trust any localhost URL for redirects.'),
      trustedDomains: rec(
        ANY_KEY,
        obj({
          baseUrl: leaf(
            v.pipe(v.string('must be a string'), v.check(isValidDomainUrl, 'must be a valid URL or wildcard domain pattern')),
            undefined,
            'The trusted origin (or wildcard pattern).',
          ),
          handlerPath: leaf(
            v.pipe(v.string('must be a string'), v.startsWith('/', 'must start with /')),
            '/handler',
            'Path of the handler pages on that domain.',
          ),
        }),
        ENV,
        'Trusted redirect domains, by any id.',
      ),
    },
    BRANCH,
  ),
  auth: obj(
    {
      allowSignUp: bool(true, 'New users may sign up.'),
      password: obj({ allowSignIn: bool(false, 'Email and password sign-in.') }),
      otp: obj({ allowSignIn: bool(false, 'Magic link / one-time code sign-in.') }),
      passkey: obj({ allowSignIn: bool(false, 'Passkey sign-in.') }),
      oauth: obj({
        accountMergeStrategy: leaf(
          v.picklist(['link_method', 'raise_error', 'allow_duplicates'], 'must be link_method, raise_error or allow_duplicates'),
          'link_method',
          'What happens when an OAuth email matches an existing user.',
        ),
        providers: rec(
          PROVIDER_KEY,
          obj({
            type: leaf(
              v.picklist(OAUTH_PROVIDER_TYPES, `must be one of ${OAUTH_PROVIDER_TYPES.join(', ')}`),
              undefined,
              'Built-in provider type (absent for a generic OpenID Connect provider).',
            ),
            allowSignIn: bool(false, 'Users may sign in with this provider.'),
            allowConnectedAccounts: bool(false, "Users may connect this provider's account."),
            isShared: bool(true, "Use shared development keys (Gatehouse's built-in development provider).", ENV),
            clientId: optStr('OAuth client id.', ENV),
            clientSecret: optStr('OAuth client secret.', ENV),
            facebookConfigId: optStr('Facebook business config id.', ENV),
            microsoftTenantId: optStr('Microsoft tenant id.', ENV),
            issuerUrl: leaf(
              v.pipe(v.string('must be a string'), v.url('must be a URL')),
              undefined,
              'Gatehouse: issuer of a generic OpenID Connect provider.',
              ENV,
            ),
            displayName: optStr('Gatehouse: button label of a generic provider.'),
            appleBundleIds: leaf(
              v.array(v.pipe(v.string(), v.minLength(1)), 'must be an array of strings'),
              undefined,
              'Gatehouse: Bundle IDs accepted by native Sign in with Apple.',
              ENV,
            ),
          }),
          undefined,
          'OAuth providers by id.',
        ),
      }),
      signUpRules: rec(
        USER_SPECIFIED_ID,
        leaf(
          SignUpRuleSchema,
          undefined,
          'A sign-up rule: enabled, displayName, priority (highest first), condition (CEL), action {type: allow|reject|restrict|log, message}.',
        ),
        undefined,
        'Sign-up rules by id (core/sign-up-rules).',
      ),
      sso: obj({
        enforceForVerifiedDomains: bool(
          false,
          'Gatehouse: addresses of a team\'s verified domain whose domain has `sso_enforced` must sign in through SSO; password, OTP and OAuth sign-in and sign-up refuse them with SSO_REQUIRED (docs/sso.md "Verified domains").',
        ),
      }),
      signUpRiskHeuristic: bool(
        true,
        'Gatehouse: score sign-ups with Gatehouse\'s own risk heuristic (docs/security.md "Risk scores"); false leaves every score at 0.',
      ),
      signUpRulesDefaultAction: leaf(
        v.picklist(['allow', 'reject'], 'must be allow or reject'),
        'allow',
        'What happens when no sign-up rule matches.',
      ),
    },
    BRANCH,
  ),
  emails: obj(
    {
      selectedThemeId: leaf(v.string('must be a string'), DEFAULT_EMAIL_THEME_ID, 'The email theme in use.'),
      defaultLocale: leaf(
        v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8}){0,3}$/, 'must be a BCP 47 language tag')),
        'en',
        'Gatehouse: language of the built-in emails for users who chose none (en or de; others fall back to en).',
      ),
      themes: rec(
        ANY_KEY,
        obj({
          displayName: leaf(v.string('must be a string'), 'Unnamed Theme', 'Theme name.'),
          tsxSource: optStr('Theme source (TSX).'),
        }),
        undefined,
        'Email themes by id.',
      ),
      templates: rec(
        ANY_KEY,
        obj({
          displayName: leaf(v.string('must be a string'), 'Unnamed Template', 'Template name.'),
          tsxSource: optStr('Template source (TSX).'),
          themeId: leaf(v.nullable(v.string('must be a string')), undefined, 'Theme of this template (null: none).'),
        }),
        undefined,
        'Email templates by id.',
      ),
      server: obj(
        {
          isShared: bool(true, 'Use the shared (built-in) email sender.'),
          host: optStr('SMTP host.'),
          port: leaf(
            v.pipe(
              v.number('must be a number'),
              v.integer('must be an integer'),
              v.minValue(0, 'must be between 0 and 65535'),
              v.maxValue(65535, 'must be between 0 and 65535'),
            ),
            undefined,
            'SMTP port.',
          ),
          username: optStr('SMTP user name.'),
          password: optStr('SMTP password.'),
          senderName: optStr('Sender name.'),
          senderEmail: leaf(v.pipe(v.string('must be a string'), v.email('must be an email address')), undefined, 'Sender address.'),
        },
        ENV,
      ),
    },
    BRANCH,
  ),
  payments: obj(
    {
      testMode: leaf(
        v.boolean('must be a boolean'),
        undefined,
        'Payments run in test mode: purchases complete without payment. Unset: on until a Stripe account is connected, then off.',
      ),
      publicTestMode: bool(
        false,
        'Anyone with a purchase code may complete a test-mode purchase from the hosted purchase page, also on a server in production mode (otherwise only admins, or anyone on a development server).',
      ),
      autoPay: data('Automatic payment settings.'),
      blockNewPurchases: bool(false, 'Refuse new purchases (create-purchase-url and purchase sessions).'),
      productLines: rec(
        USER_SPECIFIED_ID,
        data('A product line: displayName, customerType. Products in one line (add-ons aside) are mutually exclusive.'),
        undefined,
        'Product lines by id.',
      ),
      catalogs: rec(
        USER_SPECIFIED_ID,
        data('A catalog (product line): displayName, customerType.'),
        undefined,
        'Catalogs by id (the older name of product lines; both are read).',
      ),
      items: rec(USER_SPECIFIED_ID, data('An item: displayName, customerType.'), undefined, 'Items by id.'),
      products: rec(
        USER_SPECIFIED_ID,
        data(
          'A product: displayName, customerType, prices, includedItems, serverOnly, stackable, productLineId (or catalogId), isAddOnTo, freeTrial.',
        ),
        undefined,
        'Products by id.',
      ),
    },
    BRANCH,
  ),
  dataVault: obj(
    {
      stores: rec(
        USER_SPECIFIED_ID,
        obj({
          displayName: leaf(v.string('must be a string'), 'Unnamed Vault', 'Store name shown in the dashboard.'),
        }),
        undefined,
        'Data vault stores by id.',
      ),
    },
    BRANCH,
  ),
  // Upstream's analytics query folders (https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/config/schema.ts,
  // `environmentAnalyticsSchema`): environment level only, stored and rendered like any other key.
  // Gatehouse has no analytics query engine; the saved queries are kept for the dashboard.
  analytics: obj(
    {
      queryFolders: rec(
        USER_SPECIFIED_ID,
        obj({
          displayName: leaf(v.string('must be a string'), 'Unnamed Folder', 'Folder name.'),
          sortOrder: leaf(v.number('must be a number'), 0, 'Position of the folder among folders.'),
          queries: rec(
            USER_SPECIFIED_ID,
            obj({
              displayName: leaf(v.string('must be a string'), 'Unnamed Query', 'Query name.'),
              sqlQuery: leaf(v.string('must be a string'), '', 'The saved SQL query text.'),
              description: optStr('What the query shows.'),
            }),
            undefined,
            'Saved queries by id.',
          ),
        }),
        undefined,
        'Analytics query folders by id.',
      ),
    },
    ENV,
  ),
  // Gatehouse extension: how the hosted pages and components look for the project.
  // Validated here too, so no override route can put a javascript: link on the hosted pages.
  branding: obj(
    {
      accentColorLight: leaf(
        v.nullable(v.pipe(v.string('must be a string'), v.regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour #rrggbb'))),
        null,
        'Gatehouse: accent colour of hosted pages in light mode (#rrggbb).',
      ),
      accentColorDark: leaf(
        v.nullable(v.pipe(v.string('must be a string'), v.regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour #rrggbb'))),
        null,
        'Gatehouse: accent colour of hosted pages in dark mode (#rrggbb).',
      ),
      termsOfServiceUrl: leaf(
        v.nullable(v.pipe(v.string('must be a string'), v.regex(/^https?:\/\/\S+$/, 'must be an http(s) URL'))),
        null,
        'Gatehouse: terms of service link under sign-in and sign-up.',
      ),
      privacyPolicyUrl: leaf(
        v.nullable(v.pipe(v.string('must be a string'), v.regex(/^https?:\/\/\S+$/, 'must be an http(s) URL'))),
        null,
        'Gatehouse: privacy policy link under sign-in and sign-up.',
      ),
    },
    BRANCH,
  ),
  rateLimits: obj(
    {
      enabled: bool(
        true,
        'Gatehouse: throttling is on (issue 12; docs/security.md "Throttling"); false turns every limit and the failed-sign-in backoff off.',
      ),
      rules: rec(
        new RegExp(`^(${RATE_LIMIT_RULES.join('|')})$`),
        obj({
          limit: leaf(
            v.pipe(
              v.number('must be a number'),
              v.integer('must be an integer'),
              v.minValue(1, 'must be at least 1'),
              v.maxValue(1_000_000, 'must be at most 1000000'),
            ),
            undefined,
            'Requests allowed at once (the bucket size).',
          ),
          windowSeconds: leaf(
            v.pipe(
              v.number('must be a number'),
              v.integer('must be an integer'),
              v.minValue(1, 'must be at least 1'),
              v.maxValue(604_800, 'must be at most 604800'),
            ),
            undefined,
            'Seconds over which the bucket refills.',
          ),
        }),
        undefined,
        'Gatehouse: limits that differ from the defaults, by rule.',
      ),
    },
    BRANCH,
  ),
  // Gatehouse extension: Cloudflare Turnstile on sign-up and sign-in (core/bot-challenge).
  // The secret key is not here: it is stored sealed beside the config (bot_challenge_secrets).
  botChallenge: obj(
    {
      turnstileSiteKey: leaf(
        v.nullable(
          v.pipe(
            v.string('must be a string'),
            v.regex(/^[0-9A-Za-z_-]{1,128}$/, 'must be a Turnstile site key (letters, digits, _ and -)'),
          ),
        ),
        null,
        'Gatehouse: Cloudflare Turnstile site key; with its secret key (set in the dashboard, stored sealed) sign-up and sign-in verify a bot challenge (docs/security.md "Bot challenges").',
      ),
    },
    ENV,
  ),
  // Gatehouse extension: the project as an OAuth 2.1 / OpenID Connect identity provider (issue 31,
  // docs/oauth-provider.md; server-bin/oidc).
  oidc: obj(
    {
      enabled: bool(
        false,
        'Gatehouse: the project is an OAuth 2.1 / OpenID Connect identity provider, one issuer per project (docs/oauth-provider.md).',
      ),
      dynamicClientRegistration: leaf(
        v.picklist(['off', 'open', 'initial_access_token'], 'must be off, open or initial_access_token'),
        'off',
        'Gatehouse: RFC 7591 dynamic client registration: off, open to anyone, or with an initial access token.',
      ),
      scopes: leaf(
        v.pipe(
          v.array(
            v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z0-9_:.-]{1,64}$/, 'must be a scope token (letters, digits, _ : . -)')),
            'must be a list of scopes',
          ),
          v.maxLength(100, 'must have at most 100 scopes'),
        ),
        [],
        'Gatehouse: scopes clients may be granted beyond openid, profile, email and offline_access (e.g. read:reports).',
      ),
      claimsTemplate: leaf(
        v.pipe(
          v.record(v.string(), v.unknown(), 'must be an object of claim names to template strings'),
          v.check(
            (value) => claimsTemplateProblem(value) === null,
            (issue) => claimsTemplateProblem(issue.input) ?? 'is not a valid claims template',
          ),
        ),
        {},
        'Gatehouse: custom claims added to the project\'s access tokens and to its identity provider\'s ID tokens, userinfo and JWT access tokens: claim name → template such as "{{user.server_metadata.plan}}" over user.*, team.* (the selected team) and permissions (docs/oauth-provider.md "Claims").',
      ),
    },
    BRANCH,
  ),
  apps: obj(
    {
      installed: rec(
        USER_SPECIFIED_ID,
        obj({
          enabled: bool(false, 'The app is turned on.'),
        }),
        undefined,
        'Installed apps by id.',
      ),
    },
    BRANCH,
  ),
});
