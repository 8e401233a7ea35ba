import type { ComponentType } from 'react';
import type { PageProps } from '../common.tsx';
import { HANDLER_ROUTES } from '../../sdk/redirect.ts';

/**
 * The handler's routing without its pages: the component library's `Handler` (./handler.tsx)
 * gives it every default page, the hosted pages (ui/hosted/pages.tsx) their own table whose
 * rarely first-visited pages load on demand.
 */

/** A handler route key (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/components-page/stack-handler.tsx sub-paths). */
export type HandlerRoute = keyof typeof HANDLER_ROUTES;

/** The page of each route. */
export type HandlerPageTable = Record<HandlerRoute, ComponentType<PageProps>>;

/** The route of `path` under `basePath` (`/handler/sign-in` → `signIn`), or null. */
export function matchHandlerRoute(path: string, basePath: string): HandlerRoute | null {
  const base = basePath.replace(/\/+$/, '');
  if (path !== base && !path.startsWith(`${base}/`)) return null;
  const sub = path.slice(base.length).replace(/^\/+|\/+$/g, '');
  const hit = (Object.entries(HANDLER_ROUTES) as [HandlerRoute, string][]).find(([, p]) => p === sub);
  return hit ? hit[0] : null;
}

/**
 * Renders the page of `path` under `basePath` from `pages`; an unknown sub-path gets `notFound`
 * (the error page) with `errorCode` NOT_FOUND.
 */
export function HandlerPage(
  props: PageProps & {
    path: string;
    basePath: string;
    pages: HandlerPageTable;
    notFound: ComponentType<PageProps & { errorCode?: string }>;
  },
) {
  const route = matchHandlerRoute(props.path, props.basePath);
  const shared = { fullPage: props.fullPage, locale: props.locale, messages: props.messages };
  if (!route) {
    const NotFound = props.notFound;
    return <NotFound errorCode="NOT_FOUND" {...shared} />;
  }
  const Page = props.pages[route];
  return <Page {...shared} />;
}
