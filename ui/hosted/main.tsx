/**
 * Entry of the hosted handler pages bundle (served by the executable at `/handler/*` and
 * `/projects/{id}/handler/*`). Built with esbuild, React aliased to preact/compat, routed with
 * preact-iso. The server inlines `window.__GATEHOUSE__` (project id, name, logo, trusted origins).
 */
import { render } from 'preact';
// The router only: preact-iso's index also offers prerender(), whose import() would be a chunk of its own.
import { LocationProvider, useLocation } from 'preact-iso/router';
import type { ReactNode } from 'react';
import { ClientApp } from '../../sdk/client-app.ts';
import { cookieTokenStore, hostedCookieOptions } from '../../sdk/tokens.ts';
import { defaultEnvironment } from '../../sdk/env.ts';
import { httpTransport } from '../../sdk/transport.ts';
import { LOCALE_STORAGE_KEY, hostedLocale, hostedUrls, type HostedConfig } from './config.ts';
import { takeOverServerMarkup } from './early-input.ts';
import { HostedPage, HostedProviders } from './tree.tsx';
import type { Locale } from '../i18n/index.tsx';
import { loadCatalogue } from '../i18n/load.ts';

const config = (window as unknown as { __GATEHOUSE__: HostedConfig }).__GATEHOUSE__;
const prefix = location.pathname.endsWith(config.serverPath)
  ? location.pathname.slice(0, location.pathname.length - config.serverPath.length)
  : '';
const handlerPath = prefix + config.handlerPath;
const storage = (() => {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
})();
const locale = hostedLocale(location.search, storage?.getItem(LOCALE_STORAGE_KEY) ?? null, navigator.languages ?? [navigator.language]);
if (/[?&](lang|locale)=/.test(location.search)) {
  try {
    storage?.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    /* private mode */
  }
}

const app = new ClientApp({
  projectId: config.projectId,
  baseUrl: location.origin + prefix,
  // The server keeps the refresh token in an HttpOnly cookie; this page only sees a placeholder
  // (server-bin/api/cookie-bridge.ts; docs/security.md "Cookies").
  transport: httpTransport(location.origin + prefix, defaultEnvironment().fetch, { cookieBridge: true }),
  // Per-project cookie names and a 30-day refresh cookie (docs/security.md "Cookies").
  tokenStore: cookieTokenStore(config.projectId, defaultEnvironment(), undefined, hostedCookieOptions(config.projectId)),
  urls: hostedUrls(config, prefix, handlerPath),
  trustedOrigins: config.trustedOrigins,
  redirectMethod: 'window',
  // The chosen language goes with every call: sign-up stores it for the user's emails (issue 28).
  extraRequestHeaders: { 'x-gatehouse-locale': locale },
  ...(config.clientProject ? { initialProject: config.clientProject } : {}),
});

// preact-iso is typed for preact's JSX; in this bundle React *is* preact/compat.
const Location = LocationProvider as unknown as (props: { scope: string; children: ReactNode }) => ReactNode;

/** The page at the router's location. */
function Page() {
  return <HostedPage path={useLocation().path} handlerPath={handlerPath} />;
}

function show(shown: Locale) {
  document.documentElement.lang = shown;
  const root = document.getElementById('root')!;
  // Sign-in and sign-up arrive rendered by the server (./server-render.tsx): this tree takes the
  // markup's place, with what the visitor typed, focused, submitted or clicked meanwhile (./early-input.ts).
  const replay = takeOverServerMarkup(root);
  render(
    // The element tree is React-typed; preact renders it (react is aliased to preact/compat).
    (
      <Location scope={handlerPath}>
        <HostedProviders app={app} config={config} locale={shown}>
          <Page />
        </HostedProviders>
      </Location>
    ) as unknown as Parameters<typeof render>[0],
    root,
  );
  replay?.();
}

// English renders at once; another language's catalogue is a chunk fetched first (if that fails,
// the page still renders, in English).
const loading = loadCatalogue(locale);
if (loading)
  loading.then(
    () => show(locale),
    () => show('en'),
  );
else show(locale);
