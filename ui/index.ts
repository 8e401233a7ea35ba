/**
 * Gatehouse React components (`gatehouse-react`): the hosted pages' building blocks, usable in any
 * React app under a `GatehouseProvider` (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/components-page/stack-handler.tsx).
 */
export {
  SignIn,
  SignUp,
  CredentialSignIn,
  CredentialSignUp,
  MagicLinkSignIn,
  OAuthButtonGroup,
  PasskeyButton,
} from './components/sign-in.tsx';
export { ForgotPassword, PasswordReset } from './components/password.tsx';
export {
  EmailVerification,
  MagicLinkCallback,
  OAuthCallback,
  SignOut,
  MfaPage,
  CliAuthConfirm,
  ErrorPage,
} from './components/callbacks.tsx';
export { AccountSettings } from './components/account-settings.tsx';
export { PricingTable, type PricingPlan } from './components/payments.tsx';
export { TwoFactorSettings } from './components/two-factor.tsx';
export { QrCode } from './components/qr-code.tsx';
export { LinkedAccounts } from './components/linked-accounts.tsx';
export { ProviderIcon } from './components/oauth-icons.tsx';
export { UserButton } from './components/user-button.tsx';
export { SelectedTeamSwitcher, TeamInvitation } from './components/teams.tsx';
export { Handler, matchHandlerRoute, DEFAULT_PAGES, type HandlerRoute } from './components/handler.tsx';
export { BrandingContext, CapabilitiesContext, Root, type Branding, type PageProps } from './common.tsx';
export {
  LocaleProvider,
  resolveLocale,
  translator,
  useT,
  LOCALES,
  type Locale,
  type MessageKey,
  type Messages,
} from './i18n/index.tsx';
// Registers every catalogue: the library's components speak every language without loading any.
export { CATALOGUES } from './i18n/catalogues.ts';
export { GATEHOUSE_CSS } from './styles.ts';
