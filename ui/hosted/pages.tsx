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

type MorePages = typeof import('./more-pages.tsx');

/** A page of ./more-pages.tsx, loaded on its first render (`React.lazy`; the chunk is fetched once). */
function onDemand<P>(pick: (pages: MorePages) => ComponentType<P>): ComponentType<P> {
  return lazy(() => import('./more-pages.tsx').then((pages) => ({ default: pick(pages) }))) as unknown as ComponentType<P>;
}

/** The error page (also for unknown sub-paths). */
export const HostedErrorPage = onDemand<PageProps & { errorCode?: string }>((m) => m.ErrorPage);

/** Every handler route's page on the hosted pages. */
export const HOSTED_PAGES: HandlerPageTable = {
  signIn: SignIn,
  signUp: SignUp,
  signOut: onDemand((m) => m.SignOut),
  emailVerification: onDemand((m) => m.EmailVerification),
  passwordReset: onDemand((m) => m.PasswordReset),
  forgotPassword: onDemand((m) => m.ForgotPassword),
  oauthCallback: onDemand((m) => m.OAuthCallback),
  magicLinkCallback: onDemand((m) => m.MagicLinkCallback),
  accountSettings: onDemand((m) => m.AccountSettings),
  error: HostedErrorPage,
  teamInvitation: onDemand((m) => m.TeamInvitation),
  mfa: onDemand((m) => m.MfaPage),
  cliAuthConfirm: onDemand((m) => m.CliAuthConfirm),
};

/** The purchase page (`create-purchase-url` links here), a hosted page only. */
export const HostedPurchasePage = onDemand<PageProps & { code?: string }>((m) => m.PurchasePage);
