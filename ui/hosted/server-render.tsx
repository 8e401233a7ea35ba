/**
 * The server's first render of the hosted sign-in and sign-up pages (issue 28: the form is usable
 * before the page's script has run). Built by scripts/build-ui.mjs into one CommonJS file,
 * `dist/ui/hosted-ssr/render.cjs` (preact and preact-render-to-string inside, React aliased to
 * preact/compat as in the browser), which the server loads as a prebuilt file
 * (server-bin/hosted-render.ts): the same components as the browser's tree (./tree.tsx), rendered
 * with no session (a signed-in visitor's page shows their state once the script runs).
 */
import { renderToString } from 'preact-render-to-string';
import { ClientApp } from '../../sdk/client-app.ts';
import { GATEHOUSE_CSS } from '../styles.ts';
import { matchHandlerRoute } from '../components/handler-routes.tsx';
import '../i18n/catalogues.ts';
import { hostedLocale, hostedUrls, type HostedConfig } from './config.ts';
import { EARLY_INPUT_SCRIPT } from './early-input-script.ts';
import { HostedPage, HostedProviders } from './tree.tsx';

/** What the server puts into the page: the root's markup, the components' CSS, the inline script. */
export interface ServerMarkup {
  /** Inner HTML of the page's root element. */
  html: string;
  /** The components' style sheet (what `Root` would add to the document's head). */
  css: string;
  /** The inline script that holds submits and clicks until the page's script has rendered (./early-input-script.ts). */
  script: string;
  /** The language rendered (`<html lang>`). */
  locale: string;
}

/** Routes rendered on the server: the pages in the first script (./pages.tsx). */
const SERVER_RENDERED = new Set(['signIn', 'signUp']);

/** Languages of an `Accept-Language` header, in the order given (q-values are not weighed). */
function acceptedLanguages(header: string): string[] {
  return header
    .split(',')
    .map((part) => part.split(';')[0]!.trim())
    .filter(Boolean);
}

/**
 * Renders the hosted page of `config` (its `serverPath`) for a request with query `search` and
 * `Accept-Language` header, or returns null when the page is not one rendered on the server or
 * cannot render without the browser (the page's script then renders it, as before).
 */
export function renderHostedMarkup(config: HostedConfig, search: string, acceptLanguage: string): ServerMarkup | null {
  const route = matchHandlerRoute(config.serverPath, config.handlerPath);
  if (!route || !SERVER_RENDERED.has(route)) return null;
  const locale = hostedLocale(search, null, acceptedLanguages(acceptLanguage));
  const app = new ClientApp({
    projectId: config.projectId,
    baseUrl: 'http://server-render.invalid',
    // Nothing is asked while rendering: no session (the user is null at once) and the project inlined.
    transport: () => Promise.reject(new Error('The server render of a hosted page makes no requests.')),
    tokenStore: null,
    urls: hostedUrls(config, '', config.handlerPath),
    trustedOrigins: config.trustedOrigins,
    redirectMethod: 'none',
    ...(config.clientProject ? { initialProject: config.clientProject } : {}),
  });
  try {
    const html = renderToString(
      (
        <HostedProviders app={app} config={config} locale={locale}>
          <HostedPage path={config.serverPath} handlerPath={config.handlerPath} />
        </HostedProviders>
      ) as unknown as Parameters<typeof renderToString>[0],
    );
    return { html, css: GATEHOUSE_CSS, script: EARLY_INPUT_SCRIPT, locale };
  } catch {
    return null;
  }
}
