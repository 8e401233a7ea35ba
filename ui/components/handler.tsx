import type { ComponentType } from 'react';
import type { PageProps } from '../common.tsx';
import { useApp } from '../../sdk/react.tsx';
import { AccountSettings } from './account-settings.tsx';
import { CliAuthConfirm, EmailVerification, ErrorPage, MagicLinkCallback, MfaPage, OAuthCallback, SignOut } from './callbacks.tsx';
import { HandlerPage, type HandlerPageTable, type HandlerRoute } from './handler-routes.tsx';
import { ForgotPassword, PasswordReset } from './password.tsx';
import { SignIn, SignUp } from './sign-in.tsx';
import { TeamInvitation } from './teams.tsx';

export { matchHandlerRoute, type HandlerRoute } from './handler-routes.tsx';

/** The default page of each route. */
export const DEFAULT_PAGES: HandlerPageTable = {
  signIn: SignIn,
  signUp: SignUp,
  signOut: SignOut,
  emailVerification: EmailVerification,
  passwordReset: PasswordReset,
  forgotPassword: ForgotPassword,
  oauthCallback: OAuthCallback,
  magicLinkCallback: MagicLinkCallback,
  accountSettings: AccountSettings,
  error: ErrorPage,
  teamInvitation: TeamInvitation,
  mfa: MfaPage,
  cliAuthConfirm: CliAuthConfirm,
};

/**
 * Renders the page for the current sub-path of the handler base path (default: the app's
 * `urls.handler`, `/handler`). `routes` overrides any page. Unknown sub-paths show the error page.
 * `locale` picks the language of every page (English by default).
 */
export function Handler(
  props: PageProps & { path?: string; basePath?: string; routes?: Partial<Record<HandlerRoute, ComponentType<PageProps>>> },
) {
  const app = useApp();
  const path = props.path ?? (globalThis as { location?: { pathname: string } }).location?.pathname ?? '/';
  const pages = props.routes ? { ...DEFAULT_PAGES, ...props.routes } : DEFAULT_PAGES;
  return (
    <HandlerPage
      path={path}
      basePath={props.basePath ?? app.urls.handler}
      pages={pages}
      notFound={ErrorPage}
      fullPage={props.fullPage}
      locale={props.locale}
      messages={props.messages}
    />
  );
}
