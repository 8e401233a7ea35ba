/**
 * The input rules the server enforces that clients may check before sending: one public module,
 * free of storage and transport, that the hosted pages, the dashboard and the server share, so a
 * form accepts exactly what the API accepts.
 *
 * - `isValidEmail` / `normalizeEmail`: upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts email rule; trim, width mapping, lowercase, NFC (core/lib/email.ts).
 * - `isValidDomainUrl` / `isProductionSafeDomainUrl`: trusted-domain patterns (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts).
 * - `METADATA_MAX_DEPTH` / `METADATA_MAX_LENGTH` / `isNestedAtMost`: bounds of a user's or team's metadata field (core/lib/metadata-limits.ts).
 * - `PASSWORD_MIN_LENGTH` / `PASSWORD_MAX_LENGTH`: a new password's length limits (core/lib/password-limits.ts).
 */
export { isValidEmail, normalizeEmail } from './lib/email.ts';
export { isValidDomainUrl, isProductionSafeDomainUrl } from './config/domains.ts';
export { PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH } from './lib/password-limits.ts';
export { METADATA_MAX_DEPTH, METADATA_MAX_LENGTH, isNestedAtMost } from './lib/metadata-limits.ts';
