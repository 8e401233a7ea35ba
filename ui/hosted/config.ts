import { HANDLER_ROUTES, type HandlerUrls } from '../../sdk/redirect.ts';
import type { ServerCapabilities } from '../../core/operations/capabilities.ts';

/** The inline configuration the server writes into each hosted page. */
export interface HostedConfig {
  projectId: string;
  /** The path the server saw (`/handler/sign-in`); the difference to `location.pathname` is the mount prefix. */
  serverPath: string;
  /** Handler base path as the server sees it: `/handler` or `/projects/{id}/handler`. */
  handlerPath: string;
  project: { displayName: string; logoUrl: string | null };
  /** Origins of the project's trusted domains (redirect targets besides relative URLs). */
  trustedOrigins: string[];
  /**
   * Where "home" is: `/` for the internal project (the dashboard), else the project's first trusted
   * domain, or null when it has none (its end users then stay on its hosted pages).
   */
  home: string | null;
  /** What the server can do: passkey and OAuth buttons are shown only when it can. */
  capabilities: ServerCapabilities;
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

