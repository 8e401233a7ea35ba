import * as v from 'valibot';
import { imageUrlSchema } from '../images/index.ts';
import { MetadataSchema, StoredEmailSchema, UuidSchema } from '../lib/schemas.ts';

/** Display name: max 256; `""` is stored as null (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/). */
export const DisplayNameSchema = v.nullable(v.pipe(v.string(), v.maxLength(256, 'must be at most 256 characters')));

/** Profile image: an http(s) URL or an allowed base64 image under 100 KB (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ User). */
export const ProfileImageUrlSchema = imageUrlSchema(100 * 1024);

const RiskScoreSchema = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100));
export const RiskScoresSchema = v.strictObject({
  sign_up: v.strictObject({ bot: RiskScoreSchema, free_trial_abuse: RiskScoreSchema }),
});

const Base64Schema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9+/]*={0,2}$/, 'is not valid base64'));

/**
 * A user's email language (Gatehouse extension, input only: upstream's user has no such field,
 * so answers never carry it): a BCP 47 tag such as `de` or `de-AT`, null for the project's default.
 */
export const LocaleSchema = v.nullable(
  v.pipe(
    v.string(),
    v.maxLength(35, 'must be at most 35 characters'),
    v.regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8}){0,3}$/, 'must be a BCP 47 language tag'),
  ),
);

/** Fields a client may set on itself (`PATCH /users/me`, upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/). */
export const clientUpdateEntries = {
  display_name: v.optional(DisplayNameSchema),
  profile_image_url: v.optional(ProfileImageUrlSchema),
  client_metadata: v.optional(MetadataSchema),
  selected_team_id: v.optional(v.nullable(UuidSchema)),
  totp_secret_base64: v.optional(v.nullable(Base64Schema)),
  otp_auth_enabled: v.optional(v.boolean()),
  passkey_auth_enabled: v.optional(v.boolean()),
  primary_email: v.optional(v.nullable(StoredEmailSchema)),
  locale: v.optional(LocaleSchema),
};

/** Fields server code may also set (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/). */
export const serverUpdateEntries = {
  ...clientUpdateEntries,
  client_read_only_metadata: v.optional(MetadataSchema),
  server_metadata: v.optional(MetadataSchema),
  primary_email_verified: v.optional(v.boolean()),
  primary_email_auth_enabled: v.optional(v.boolean()),
  password: v.optional(v.nullable(v.string())),
  password_hash: v.optional(v.string()),
  is_anonymous: v.optional(v.boolean()),
  restricted_by_admin: v.optional(v.boolean()),
  restricted_by_admin_reason: v.optional(v.nullable(v.string())),
  restricted_by_admin_private_details: v.optional(v.nullable(v.string())),
  country_code: v.optional(v.nullable(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, 'must be a two-letter ISO country code')))),
  risk_scores: v.optional(RiskScoresSchema),
};

/**
 * A reason or private details only go with `restricted_by_admin: true` in the same body (upstream's
 * `restrictedByAdminConsistencyTest`): SCHEMA_ERROR otherwise.
 */
/** The server user body (create, and update by id or `me`); the first broken rule is reported. */
export const ServerUserBodySchema = v.pipe(
  v.strictObject(serverUpdateEntries),
  v.check(
    (b) => b.restricted_by_admin === true || b.restricted_by_admin_reason == null,
    'restricted_by_admin_reason must be null when restricted_by_admin is not true',
  ),
  v.check(
    (b) => b.restricted_by_admin === true || b.restricted_by_admin_reason != null || b.restricted_by_admin_private_details == null,
    'restricted_by_admin_private_details must be null when restricted_by_admin is not true',
  ),
);
/**
 * `POST /users` body: the server fields plus `oauth_providers` (provider accounts to link, e.g.
 * when importing users; upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/).
 */
export const ServerUserCreateSchema = v.pipe(
  v.strictObject({
    ...serverUpdateEntries,
    oauth_providers: v.optional(
      v.array(
        v.strictObject({
          id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
          account_id: v.pipe(v.string(), v.minLength(1), v.maxLength(256)),
          email: v.optional(v.nullable(v.pipe(v.string(), v.email('must be a valid email')))),
        }),
      ),
    ),
  }),
  v.check(
    (b) => b.restricted_by_admin === true || b.restricted_by_admin_reason == null,
    'restricted_by_admin_reason must be null when restricted_by_admin is not true',
  ),
  v.check(
    (b) => b.restricted_by_admin === true || b.restricted_by_admin_reason != null || b.restricted_by_admin_private_details == null,
    'restricted_by_admin_private_details must be null when restricted_by_admin is not true',
  ),
);
export type ServerUserCreate = v.InferOutput<typeof ServerUserBodySchema>;
