import type { RegistrationResponseJSON, verifyRegistrationResponse } from '@simplewebauthn/server';
import { loadWebAuthn } from './webauthn.ts';
import { requireUser } from '../auth/user-id.ts';
import { KnownError } from '../errors/index.ts';
import { uuid } from '../lib/random.ts';
import { defineOperation } from '../operations/define.ts';
import { useVerificationCode, VERIFICATION_CODE_ERRORS } from '../verification-codes/index.ts';
import { syncPasskeyFlag } from './flag.ts';
import type { RegistrationChallengeData } from './initiate-passkey-registration.ts';
import { findPasskeyByCredentialId, insertPasskey, replacePasskeyKey } from './queries.ts';
import { expectedRelyingParty } from './relying-party.ts';
import { RegisterBodySchema } from './schemas.ts';
import * as v from 'valibot';

const failed = (message: string) => new KnownError('PASSKEY_REGISTRATION_FAILED', { message });

/**
 * Registers a passkey for the signed-in user, answering the new credential's id as `user_handle` (upstream `auth/passkey/register/verification-code-handler.tsx`).
 *
 * The challenge code is consumed first (single use whatever the outcome, as a WebAuthn challenge
 * must be). The origin in the signed client data must be trusted by the project (see
 * `expectedRelyingParty`); the RP id is its hostname; the attestation is verified by
 * `@simplewebauthn/server` (user verification not required, as upstream). The credential is
 * stored (public key, counter, transports, backup state) and the user's `passkey_auth_enabled`
 * becomes true. Unlike upstream, which keeps one passkey per user and overwrites it, a user may
 * hold several (one per authenticator); registering the same credential again replaces its key.
 *
 * One error covers an origin not allowed, a code of another user, a challenge or attestation not
 * matching, and a credential already registered by another user.
 */
export const registerPasskey = defineOperation({
  id: 'passkeys.register',
  method: 'POST',
  path: '/auth/passkey/register',
  summary: 'Finish registering a passkey for the signed-in user.',
  access: ['client', 'server', 'admin'],
  input: { body: RegisterBodySchema },
  errors: [
    'PASSKEY_AUTHENTICATION_NOT_ENABLED',
    'USER_AUTHENTICATION_REQUIRED',
    ...VERIFICATION_CODE_ERRORS,
    'PASSKEY_REGISTRATION_FAILED',
  ],
  output: v.strictObject({ user_handle: v.string() }),
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    if (!project.config.passkeyEnabled) throw new KnownError('PASSKEY_AUTHENTICATION_NOT_ENABLED');
    const user = requireUser(ctx.auth);
    const code = await useVerificationCode<RegistrationChallengeData, { data: RegistrationChallengeData; userId: string | null }>(
      ctx,
      project.id,
      'passkey_registration',
      body.code,
      async (_tx, c) => ({ data: c.data, userId: c.userId }),
    );
    if (code.userId !== user.id) throw failed('Passkey registration failed because the code was issued to another user');
    const rp = expectedRelyingParty(ctx.runtime, project, body.credential.response.clientDataJSON, 'PASSKEY_REGISTRATION_FAILED');

    const {
      server: webauthn,
      helpers: { isoBase64URL },
    } = await loadWebAuthn();
    let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verification = await webauthn.verifyRegistrationResponse({
        response: body.credential as unknown as RegistrationResponseJSON,
        expectedChallenge: code.data.challenge,
        expectedOrigin: rp.expectedOrigin,
        expectedRPID: rp.expectedRPID,
        expectedType: 'webauthn.create',
        requireUserVerification: false,
      });
    } catch {
      // The library explains a mismatch in its message (including the expected challenge); the
      // caller learns only that verification failed.
      throw failed(
        rp.challenge === code.data.challenge
          ? 'Passkey registration failed because the verification response is invalid'
          : 'Passkey registration failed because the challenge does not match',
      );
    }
    if (!verification.verified || !verification.registrationInfo)
      throw failed('Passkey registration failed because the verification response is invalid');
    const info = verification.registrationInfo;
    const key = {
      public_key: isoBase64URL.fromBuffer(info.credential.publicKey),
      counter: info.credential.counter,
      transports: JSON.stringify(info.credential.transports ?? body.credential.response.transports ?? []),
      device_type: info.credentialDeviceType,
      backed_up: info.credentialBackedUp,
    };
    await ctx.transaction(async (tx) => {
      const existing = await findPasskeyByCredentialId(tx.db, project.id, info.credential.id);
      if (existing && existing.user_id !== user.id) throw failed('Passkey registration failed because this passkey is already registered');
      if (existing) await replacePasskeyKey(tx.db, project.id, existing.id, key);
      else
        await insertPasskey(tx.db, {
          id: uuid(),
          project_id: project.id,
          user_id: user.id,
          credential_id: info.credential.id,
          ...key,
          created_at: tx.now,
          last_used_at: null,
        });
      await syncPasskeyFlag(tx, project.id, user.id);
    });
    return { user_handle: info.credential.id };
  },
});
