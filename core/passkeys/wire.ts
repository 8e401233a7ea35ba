import * as v from 'valibot';
import { component, MillisOutput } from '../operations/output.ts';
import type { PasskeyRow } from './queries.ts';

/**
 * A passkey as the Gatehouse-extension routes show it: no key material, only what a user or admin
 * needs to recognise and remove it. Times are epoch ms.
 */
export function toWirePasskey(row: PasskeyRow) {
  return {
    id: row.id,
    user_id: row.user_id,
    credential_id: row.credential_id,
    device_type: row.device_type,
    backed_up: row.backed_up,
    transports: JSON.parse(row.transports) as string[],
    created_at_millis: Number(row.created_at),
    last_used_at_millis: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

/** A passkey as {@link toWirePasskey} shows it. */
export const PasskeyOutput = component(
  'Passkey',
  v.strictObject({
    id: v.string(),
    user_id: v.string(),
    credential_id: v.string(),
    device_type: v.picklist(['singleDevice', 'multiDevice']),
    backed_up: v.boolean(),
    transports: v.array(v.string()),
    created_at_millis: MillisOutput,
    last_used_at_millis: v.nullable(MillisOutput),
  }),
);

const CredentialDescriptorOutput = v.strictObject({
  id: v.string(),
  type: v.literal('public-key'),
  transports: v.optional(v.array(v.string())),
});
const UserVerificationOutput = v.picklist(['required', 'preferred', 'discouraged']);

/** `PublicKeyCredentialCreationOptionsJSON` (WebAuthn L3 §5.4) as `@simplewebauthn/server` builds it. */
export const RegistrationOptionsOutput = component(
  'PasskeyRegistrationOptions',
  v.strictObject({
    challenge: v.string(),
    rp: v.strictObject({ name: v.string(), id: v.string() }),
    user: v.strictObject({ id: v.string(), name: v.string(), displayName: v.string() }),
    pubKeyCredParams: v.array(v.strictObject({ alg: v.number(), type: v.literal('public-key') })),
    timeout: v.number(),
    attestation: v.picklist(['none', 'indirect', 'direct', 'enterprise']),
    excludeCredentials: v.array(CredentialDescriptorOutput),
    authenticatorSelection: v.strictObject({
      residentKey: v.picklist(['required', 'preferred', 'discouraged']),
      userVerification: UserVerificationOutput,
      requireResidentKey: v.boolean(),
    }),
    extensions: v.strictObject({ credProps: v.boolean() }),
    hints: v.optional(v.array(v.string())),
  }),
);

/** `PublicKeyCredentialRequestOptionsJSON` (WebAuthn L3 §5.5) as `@simplewebauthn/server` builds it. */
export const AuthenticationOptionsOutput = component(
  'PasskeyAuthenticationOptions',
  v.strictObject({
    rpId: v.string(),
    challenge: v.string(),
    allowCredentials: v.array(CredentialDescriptorOutput),
    timeout: v.number(),
    userVerification: UserVerificationOutput,
  }),
);
