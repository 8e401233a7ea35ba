/**
 * The hosted pages' page table: sign-in and sign-up (what most visits open first) are in the first
 * script; every other page is in one chunk (./more-pages.tsx; esbuild code splitting,
 * scripts/build-ui.mjs) fetched when one of them is shown, so the sign-in form does not wait for account settings, the QR encoder,
 * payments or team settings to be parsed. Render them under a `<Suspense>`.
 */
import { lazy, type ComponentType } from 'react';
import type { PageProps } from '../common.tsx';
import type { HandlerPageTable } from '../components/handler-routes.tsx';
import { SignIn, SignUp } from '../components/sign-in.tsx';

/** A page loaded on its first render (`React.lazy`): `load` imports ./more-pages.tsx (one chunk, fetched once) and picks it. */
function onDemand<P>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return lazy(() => load().then((component) => ({ default: component }))) as unknown as ComponentType<P>;
}

/** The error page (also for unknown sub-paths). */
export const HostedErrorPage = onDemand<PageProps & { errorCode?: string }>(() => import('./more-pages.tsx').then((m) => m.ErrorPage));

/** Every handler route's page on the hosted pages. */
export const HOSTED_PAGES: HandlerPageTable = {
  signIn: SignIn,
  signUp: SignUp,
  signOut: onDemand(() => import('./more-pages.tsx').then((m) => m.SignOut)),
  emailVerification: onDemand(() => import('./more-pages.tsx').then((m) => m.EmailVerification)),
  passwordReset: onDemand(() => import('./more-pages.tsx').then((m) => m.PasswordReset)),
  forgotPassword: onDemand(() => import('./more-pages.tsx').then((m) => m.ForgotPassword)),
  oauthCallback: onDemand(() => import('./more-pages.tsx').then((m) => m.OAuthCallback)),
  magicLinkCallback: onDemand(() => import('./more-pages.tsx').then((m) => m.MagicLinkCallback)),
  accountSettings: onDemand(() => import('./more-pages.tsx').then((m) => m.AccountSettings)),
  error: HostedErrorPage,
  teamInvitation: onDemand(() => import('./more-pages.tsx').then((m) => m.TeamInvitation)),
  mfa: onDemand(() => import('./more-pages.tsx').then((m) => m.MfaPage)),
  cliAuthConfirm: onDemand(() => import('./more-pages.tsx').then((m) => m.CliAuthConfirm)),
};

/** The purchase page (`create-purchase-url` links here), a hosted page only. */
export const HostedPurchasePage = onDemand<PageProps & { code?: string }>(() => import('./more-pages.tsx').then((m) => m.PurchasePage));
