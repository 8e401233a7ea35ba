/**
 * The hosted pages other than sign-in and sign-up, as one chunk (./pages.tsx loads it on demand):
 * one on-demand module rather than one per page keeps the first script to two files (the entry
 * and the code it shares with this chunk, scripts/build-ui.mjs), each fetched once.
 */
export { AccountSettings } from '../components/account-settings.tsx';
export {
  CliAuthConfirm,
  EmailVerification,
  ErrorPage,
  MagicLinkCallback,
  MfaPage,
  OAuthCallback,
  SignOut,
} from '../components/callbacks.tsx';
export { ForgotPassword, PasswordReset } from '../components/password.tsx';
export { PurchasePage } from '../components/purchase.tsx';
export { TeamInvitation } from '../components/teams.tsx';
