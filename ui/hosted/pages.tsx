/**
 * The hosted pages' page table: sign-in and sign-up (what most visits open first) are in the first
 * script; every other page is a chunk of its own (esbuild code splitting, scripts/build-ui.mjs)
 * fetched when it is shown, so the sign-in form does not wait for account settings, the QR encoder,
 * payments or team settings to be parsed. Render them under a `<Suspense>`.
 */
import { lazy, type ComponentType } from 'react';
import type { PageProps } from '../common.tsx';
import type { HandlerPageTable } from '../components/handler-routes.tsx';
import { SignIn, SignUp } from '../components/sign-in.tsx';

/** A page loaded on first render (`React.lazy`): `load` resolves with its component. */
function onDemand<P>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return lazy(() => load().then((component) => ({ default: component }))) as unknown as ComponentType<P>;
}

const callbacks = () => import('../components/callbacks.tsx');
const password = () => import('../components/password.tsx');

/** The error page (also for unknown sub-paths). */
export const HostedErrorPage = onDemand<PageProps & { errorCode?: string }>(() => callbacks().then((m) => m.ErrorPage));

/** Every handler route's page on the hosted pages. */
export const HOSTED_PAGES: HandlerPageTable = {
  signIn: SignIn,
  signUp: SignUp,
  signOut: onDemand(() => callbacks().then((m) => m.SignOut)),
  emailVerification: onDemand(() => callbacks().then((m) => m.EmailVerification)),
  passwordReset: onDemand(() => password().then((m) => m.PasswordReset)),
  forgotPassword: onDemand(() => password().then((m) => m.ForgotPassword)),
  oauthCallback: onDemand(() => callbacks().then((m) => m.OAuthCallback)),
  magicLinkCallback: onDemand(() => callbacks().then((m) => m.MagicLinkCallback)),
  accountSettings: onDemand(() => import('../components/account-settings.tsx').then((m) => m.AccountSettings)),
  error: HostedErrorPage,
  teamInvitation: onDemand(() => import('../components/teams.tsx').then((m) => m.TeamInvitation)),
  mfa: onDemand(() => callbacks().then((m) => m.MfaPage)),
  cliAuthConfirm: onDemand(() => callbacks().then((m) => m.CliAuthConfirm)),
};

/** The purchase page (`create-purchase-url` links here), a hosted page only. */
export const HostedPurchasePage = onDemand<PageProps & { code?: string }>(() =>
  import('../components/purchase.tsx').then((m) => m.PurchasePage),
);
