import type { ComponentType } from 'react';
import type { PageProps } from '../common.tsx';
import { HANDLER_ROUTES } from '../../sdk/redirect.ts';
import { useApp } from '../../sdk/react.tsx';
import { AccountSettings } from './account-settings.tsx';
import { CliAuthConfirm, EmailVerification, ErrorPage, MagicLinkCallback, MfaPage, OAuthCallback, SignOut } from './callbacks.tsx';
import { ForgotPassword, PasswordReset } from './password.tsx';
import { SignIn, SignUp } from './sign-in.tsx';
import { TeamInvitation } from './teams.tsx';

/** A handler route key (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/components-page/stack-handler.tsx sub-paths). */
export type HandlerRoute = keyof typeof HANDLER_ROUTES;

/** The default page of each route. */
export const DEFAULT_PAGES: Record<HandlerRoute, ComponentType<PageProps>> = {
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

/** The route of `path` under `basePath` (`/handler/sign-in` → `signIn`), or null. */
export function matchHandlerRoute(path: string, basePath: string): HandlerRoute | null {
  const base = basePath.replace(/\/+$/, '');
  if (path !== base && !path.startsWith(`${base}/`)) return null;
  const sub = path.slice(base.length).replace(/^\/+|\/+$/g, '');
  const hit = (Object.entries(HANDLER_ROUTES) as [HandlerRoute, string][]).find(([, p]) => p === sub);
  return hit ? hit[0] : null;
}

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
  const route = matchHandlerRoute(path, props.basePath ?? app.urls.handler);
  if (!route) return <ErrorPage errorCode="NOT_FOUND" fullPage={props.fullPage} locale={props.locale} messages={props.messages} />;
  const Page = props.routes?.[route] ?? DEFAULT_PAGES[route];
  return <Page fullPage={props.fullPage} locale={props.locale} messages={props.messages} />;
}
