import { loadWebAuthn } from './webauthn.ts';
import { KnownError } from '../errors/index.ts';
import { defineOperation } from '../operations/define.ts';
import { createVerificationCode } from '../verification-codes/index.ts';
import { CEREMONY_TIMEOUT_MS, CHALLENGE_TTL_MS, RP_ID_SENTINEL } from './relying-party.ts';
import { EmptyBodySchema } from './schemas.ts';
import * as v from 'valibot';
import { AuthenticationOptionsOutput } from './wire.ts';

/** What an authentication challenge code carries. */
export interface AuthenticationChallengeData extends Record<string, unknown> {
  /** base64url challenge the authenticator must sign. */
  challenge: string;
}

/**
 * Starts a passkey sign-in (upstream
 * `auth/passkey/initiate-passkey-authentication/route.tsx`). No user needed.
 *
 * `options_json` is a `PublicKeyCredentialRequestOptionsJSON` (WebAuthn L3 §5.5):
 * `{allowCredentials: [], challenge, rpId: <sentinel>, timeout: 60000, userVerification:
 * "preferred"}`; the empty allow list asks for a discoverable credential. `code` is a single-use
 * challenge code (purpose `passkey_authentication`, valid 65 s).
 */
export const initiatePasskeyAuthentication = defineOperation({
  id: 'passkeys.initiateAuthentication',
  method: 'POST',
  path: '/auth/passkey/initiate-passkey-authentication',
  summary: 'Start signing in with a passkey.',
  access: ['client', 'server', 'admin'],
  input: { body: EmptyBodySchema },
  errors: ['PASSKEY_AUTHENTICATION_NOT_ENABLED'],
  output: v.strictObject({ options_json: AuthenticationOptionsOutput, code: v.string() }),
  async run(ctx) {
    const { project } = ctx.auth;
    if (!project.config.passkeyEnabled) throw new KnownError('PASSKEY_AUTHENTICATION_NOT_ENABLED');
    const { generateAuthenticationOptions } = (await loadWebAuthn()).server;
    const options = await generateAuthenticationOptions({
      rpID: RP_ID_SENTINEL,
      userVerification: 'preferred',
      allowCredentials: [],
      timeout: CEREMONY_TIMEOUT_MS,
    });
    const { code } = await createVerificationCode<AuthenticationChallengeData>(ctx, {
      projectId: project.id,
      purpose: 'passkey_authentication',
      data: { challenge: options.challenge },
      expiresInMs: CHALLENGE_TTL_MS,
    });
    return { options_json: options, code };
  },
});
