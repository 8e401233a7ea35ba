import { loadWebAuthn } from './webauthn.ts';
import { requireUser } from '../auth/user-id.ts';
import { KnownError } from '../errors/index.ts';
import { defineOperation } from '../operations/define.ts';
import { createVerificationCode } from '../verification-codes/index.ts';
import { listUserPasskeys } from './queries.ts';
import { CEREMONY_TIMEOUT_MS, CHALLENGE_TTL_MS, RP_ID_SENTINEL } from './relying-party.ts';
import { EmptyBodySchema } from './schemas.ts';
import * as v from 'valibot';
import { RegistrationOptionsOutput } from './wire.ts';

/** What a registration challenge code carries. */
export interface RegistrationChallengeData extends Record<string, unknown> {
  /** base64url challenge the browser must sign. */
  challenge: string;
  /** base64url WebAuthn user handle (the user id's UTF-8 bytes). */
  userHandle: string;
}

/**
 * Starts a passkey registration for the signed-in user (upstream `auth/passkey/initiate-passkey-registration/route.tsx`).
 *
 * `options_json` is a `PublicKeyCredentialCreationOptionsJSON` (WebAuthn L3 §5.4) with the RP id
 * sentinel (the browser puts its hostname there), a discoverable credential required, user
 * verification preferred, a 60 s timeout, and the user id's UTF-8 bytes as user handle. `code` is a
 * single-use challenge code (verification-code engine, purpose `passkey_registration`, bound to
 * the user, valid 65 s). Gatehouse adds the user's existing credentials to `excludeCredentials`
 * so one authenticator cannot be registered twice.
 */
export const initiatePasskeyRegistration = defineOperation({
  id: 'passkeys.initiateRegistration',
  method: 'POST',
  path: '/auth/passkey/initiate-passkey-registration',
  summary: 'Start registering a passkey for the signed-in user.',
  access: ['client', 'server', 'admin'],
  input: { body: EmptyBodySchema },
  errors: ['PASSKEY_AUTHENTICATION_NOT_ENABLED', 'USER_AUTHENTICATION_REQUIRED'],
  output: v.strictObject({ options_json: RegistrationOptionsOutput, code: v.string() }),
  async run(ctx) {
    const { project } = ctx.auth;
    if (!project.config.passkeyEnabled) throw new KnownError('PASSKEY_AUTHENTICATION_NOT_ENABLED');
    const user = requireUser(ctx.auth);
    const existing = await listUserPasskeys(ctx.db, project.id, user.id);
    const name = user.display_name || user.primary_email || 'Gatehouse User';
    const {
      server: { generateRegistrationOptions },
      helpers: { isoUint8Array },
    } = await loadWebAuthn();
    const raw = await generateRegistrationOptions({
      rpName: project.displayName,
      rpID: RP_ID_SENTINEL,
      userID: isoUint8Array.fromUTF8String(user.id),
      userName: name,
      userDisplayName: name,
      timeout: CEREMONY_TIMEOUT_MS,
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: JSON.parse(p.transports) })),
    });
    // Upstream drops an empty `hints` array from the options it sends.
    const options: Record<string, unknown> = { ...raw };
    if (Array.isArray(options.hints) && options.hints.length === 0) delete options.hints;
    const { code } = await createVerificationCode<RegistrationChallengeData>(ctx, {
      projectId: project.id,
      purpose: 'passkey_registration',
      userId: user.id,
      data: { challenge: raw.challenge, userHandle: raw.user.id },
      expiresInMs: CHALLENGE_TTL_MS,
    });
    return { options_json: options, code };
  },
});
