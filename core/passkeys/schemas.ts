import * as v from 'valibot';
import { UserIdOrMeSchema, UuidSchema } from '../lib/schemas.ts';

/**
 * Wire shapes of the passkey routes. The browser's `PublicKeyCredential.toJSON()` output
 * (WebAuthn L3 §5.1.8, `RegistrationResponseJSON` / `AuthenticationResponseJSON`): binary fields
 * are base64url text. Objects are loose because browsers add fields over time; what
 * `@simplewebauthn/server` reads is typed here, so a missing or mistyped field is a SCHEMA_ERROR
 * naming it rather than a failure deep inside verification.
 */

const Base64UrlSchema = v.pipe(v.string(), v.maxLength(65536, 'is too long'));
const ExtensionsSchema = v.optional(v.record(v.string(), v.unknown()), {});
const AttachmentSchema = v.optional(v.picklist(['platform', 'cross-platform']));

/** `credential` of `POST /auth/passkey/register`. */
export const RegistrationResponseSchema = v.looseObject({
  id: Base64UrlSchema,
  rawId: Base64UrlSchema,
  type: v.literal('public-key'),
  response: v.looseObject({
    clientDataJSON: Base64UrlSchema,
    attestationObject: Base64UrlSchema,
    authenticatorData: v.optional(Base64UrlSchema),
    transports: v.optional(v.array(v.string())),
    publicKeyAlgorithm: v.optional(v.number()),
    publicKey: v.optional(Base64UrlSchema),
  }),
  clientExtensionResults: ExtensionsSchema,
  authenticatorAttachment: AttachmentSchema,
});

/** `authentication_response` of `POST /auth/passkey/sign-in`. */
export const AuthenticationResponseSchema = v.looseObject({
  id: Base64UrlSchema,
  rawId: Base64UrlSchema,
  type: v.literal('public-key'),
  response: v.looseObject({
    clientDataJSON: Base64UrlSchema,
    authenticatorData: Base64UrlSchema,
    signature: Base64UrlSchema,
    userHandle: v.optional(v.nullable(Base64UrlSchema)),
  }),
  clientExtensionResults: ExtensionsSchema,
  authenticatorAttachment: AttachmentSchema,
});

export const RegisterBodySchema = v.strictObject({ credential: RegistrationResponseSchema, code: v.string() });
export const SignInBodySchema = v.strictObject({ authentication_response: AuthenticationResponseSchema, code: v.string() });
export const EmptyBodySchema = v.strictObject({});

/** `GET /passkeys?user_id=` (Gatehouse extension). */
export const ListPasskeysQuerySchema = v.strictObject({ user_id: UserIdOrMeSchema });
/** `DELETE /passkeys/{user_id}/{passkey_id}` (Gatehouse extension). */
export const PasskeyParamsSchema = v.strictObject({ user_id: UserIdOrMeSchema, passkey_id: UuidSchema });
