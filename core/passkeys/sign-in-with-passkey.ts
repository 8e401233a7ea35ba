import type { AuthenticationResponseJSON, verifyAuthenticationResponse } from '@simplewebauthn/server';
import { loadWebAuthn } from './webauthn.ts';
import { KnownError } from '../errors/index.ts';
import { defineOperation } from '../operations/define.ts';
import { finishSignIn, FINISH_SIGN_IN_ERRORS, SignInNewUserOutput } from '../mfa/index.ts';
import { findUser } from '../users/index.ts';
import { useVerificationCode, VERIFICATION_CODE_ERRORS } from '../verification-codes/index.ts';
import type { AuthenticationChallengeData } from './initiate-passkey-authentication.ts';
import { findPasskeyByCredentialId, recordPasskeyUse } from './queries.ts';
import { expectedRelyingParty } from './relying-party.ts';
import { SignInBodySchema } from './schemas.ts';

const failed = (message: string) => new KnownError('PASSKEY_AUTHENTICATION_FAILED', { message });

/**
 * Signs in with a passkey (upstream
 * `auth/passkey/sign-in/verification-code-handler.tsx`).
 *
 * Order, as upstream: the challenge code is consumed (single use whatever the outcome); the
 * credential is looked up by its id in this project ("Passkey not found"); the signed origin must
 * be trusted ("…because the origin is not allowed"); the assertion is verified against the stored
 * public key and counter by `@simplewebauthn/server` (user verification not required, as
 * upstream). Gatehouse also refuses a `userHandle` that is not the credential owner's. On success
 * the new counter is stored and the sign-in finishes through `finishSignIn` (core/mfa): tokens,
 * or the multi-factor challenge with an attempt code for a user with TOTP on.
 */
export const signInWithPasskey = defineOperation({
  id: 'passkeys.signIn',
  method: 'POST',
  path: '/auth/passkey/sign-in',
  summary: 'Sign in with a passkey.',
  access: ['client', 'server', 'admin'],
  input: { body: SignInBodySchema },
  errors: ['PASSKEY_AUTHENTICATION_NOT_ENABLED', ...VERIFICATION_CODE_ERRORS, 'PASSKEY_AUTHENTICATION_FAILED', ...FINISH_SIGN_IN_ERRORS],
  output: SignInNewUserOutput,
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    if (!project.config.passkeyEnabled) throw new KnownError('PASSKEY_AUTHENTICATION_NOT_ENABLED');
    const response = body.authentication_response;
    const challenge = await useVerificationCode<AuthenticationChallengeData, string>(
      ctx,
      project.id,
      'passkey_authentication',
      body.code,
      async (_tx, c) => c.data.challenge,
    );
    const passkey = await findPasskeyByCredentialId(ctx.db, project.id, response.id);
    if (!passkey) throw failed('Passkey not found');
    const rp = expectedRelyingParty(ctx.runtime, project, response.response.clientDataJSON, 'PASSKEY_AUTHENTICATION_FAILED');
    const {
      server: webauthn,
      helpers: { isoBase64URL, isoUint8Array },
    } = await loadWebAuthn();
    const handle = response.response.userHandle;
    if (handle && handle !== isoBase64URL.fromBuffer(isoUint8Array.fromUTF8String(passkey.user_id))) {
      throw failed('Passkey authentication failed because the user handle does not match the passkey');
    }

    let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verification = await webauthn.verifyAuthenticationResponse({
        response: response as unknown as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.expectedOrigin,
        expectedRPID: rp.expectedRPID,
        credential: {
          id: passkey.credential_id,
          publicKey: isoBase64URL.toBuffer(passkey.public_key),
          counter: Number(passkey.counter),
          transports: JSON.parse(passkey.transports),
        },
        requireUserVerification: false,
      });
    } catch {
      throw failed(
        rp.challenge === challenge
          ? 'Passkey authentication failed because the authentication response could not be verified'
          : 'Passkey authentication failed because the challenge does not match',
      );
    }
    if (!verification.verified) {
      throw failed(
        'The signature of the authentication response could not be verified with the stored public key tied to this credential ID',
      );
    }
    const { newCounter } = verification.authenticationInfo;
    // The assertion is valid: keep the authenticator's counter even when a second factor follows
    // (as upstream). finishSignIn runs outside any transaction (its MFA error keeps its code).
    await recordPasskeyUse(ctx.db, project.id, passkey.id, newCounter, ctx.now);
    const user = await findUser(ctx.db, project.id, passkey.user_id);
    if (!user) throw failed('Passkey not found');
    return finishSignIn(ctx, project, user, { is_new_user: false });
  },
});
