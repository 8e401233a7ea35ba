import { HANDLER_ROUTES, type HandlerUrls } from '../../sdk/redirect.ts';
import type { ServerCapabilities } from '../../core/operations/capabilities.ts';
import type { Branding } from '../common.tsx';
import type { WireClientProject } from '../../sdk/wire.ts';
import { resolveLocale, type Locale } from '../i18n/index.tsx';

/** The inline configuration the server writes into each hosted page. */
export interface HostedConfig {
  projectId: string;
  /** The path the server saw (`/handler/sign-in`); the difference to `location.pathname` is the mount prefix. */
  serverPath: string;
  /** Handler base path as the server sees it: `/handler` or `/projects/{id}/handler`. */
  handlerPath: string;
  /** Name, logo, accent colours and legal links (the project's `branding` config). */
  project: Branding;
  /** Origins of the project's trusted domains (redirect targets besides relative URLs). */
  trustedOrigins: string[];
  /**
   * Where "home" is: `/` for the internal project (the dashboard), else the project's first trusted
   * domain, or null when it has none (its end users then stay on its hosted pages).
   */
  home: string | null;
  /** What the server can do: passkey and OAuth buttons are shown only when it can. */
  capabilities: ServerCapabilities;
  /** The project's public settings as `GET /projects/current` answers them (seeded into the SDK's cache). */
  clientProject?: WireClientProject;
  /** Whether the project has SSO connections (sign-in asks for the address first); absent: the page asks. */
  ssoAvailable?: boolean;
}

/**
 * The app URLs of a hosted page. A project without a trusted domain has no app: after sign-in or
 * sign-up its users land on its account settings, after sign-out on its sign-in page, all under
 * its own handler path (never `/`, the Gatehouse dashboard).
 */
export function hostedUrls(c: Pick<HostedConfig, 'home'>, mountPrefix: string, handler: string): Partial<HandlerUrls> {
  if (c.home === null) {
    const settings = `${handler}/${HANDLER_ROUTES.accountSettings}`;
    return { handler, home: settings, afterSignIn: settings, afterSignUp: settings, afterSignOut: `${handler}/${HANDLER_ROUTES.signIn}` };
  }
  return { handler, home: c.home.startsWith('/') ? mountPrefix + c.home : c.home };
}

/** Where the hosted pages keep the language chosen with `?lang=` for the rest of the visit. */
export const LOCALE_STORAGE_KEY = 'gatehouse-locale';

/**
 * The hosted pages' language: the app's choice in the address (`?lang=de` or `?locale=de`, kept
 * for the visit), else the one kept earlier in this tab, else the browser's languages, else
 * English.
 */
export function hostedLocale(search: string, stored: string | null, browser: readonly string[]): Locale {
  const q = new URLSearchParams(search);
  const asked = q.get('lang') ?? q.get('locale');
  if (asked) return resolveLocale(asked);
  if (stored) return resolveLocale(stored);
  return resolveLocale(browser);
}
