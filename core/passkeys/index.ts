/**
 * Passkeys (WebAuthn, `@simplewebauthn/server`): registration and sign-in ceremonies behind the
 * project's `passkey_enabled` switch, with challenges kept as single-use verification codes, and
 * the Gatehouse-extension routes to list and remove a user's passkeys.
 * @see upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/passkey/*, WebAuthn L3
 */
export { initiatePasskeyRegistration } from './initiate-passkey-registration.ts';
export { registerPasskey } from './register-passkey.ts';
export { initiatePasskeyAuthentication } from './initiate-passkey-authentication.ts';
export { signInWithPasskey } from './sign-in-with-passkey.ts';
export { listPasskeys } from './list-passkeys.ts';
export { deletePasskey } from './delete-passkey.ts';
export { removeAllPasskeys } from './flag.ts';
