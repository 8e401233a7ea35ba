/**
 * Entry of the hosted handler pages bundle (served by the executable at `/handler/*` and
 * `/projects/{id}/handler/*`). Built with esbuild, React aliased to preact/compat, routed with
 * preact-iso. The server inlines `window.__GATEHOUSE__` (project id, name, logo, trusted origins).
 */
import { render } from 'preact';
// The router only: preact-iso's index also offers prerender(), whose import() would be a chunk of its own.
import { LocationProvider, useLocation } from 'preact-iso/router';
import { Suspense, type ReactNode } from 'react';
import { ClientApp } from '../../sdk/client-app.ts';
import { cookieTokenStore, hostedCookieOptions } from '../../sdk/tokens.ts';
import { defaultEnvironment } from '../../sdk/env.ts';
import { httpTransport } from '../../sdk/transport.ts';
import { GatehouseProvider } from '../../sdk/react.tsx';
import { BrandingContext, CapabilitiesContext, Spinner } from '../common.tsx';
import { HandlerPage } from '../components/handler-routes.tsx';
import { SsoAvailableContext } from '../components/sso-discovery.tsx';
import { LOCALE_STORAGE_KEY, hostedLocale, hostedUrls, type HostedConfig } from './config.ts';
import { HOSTED_PAGES, HostedErrorPage, HostedPurchasePage } from './pages.tsx';
import { LocaleProvider, type Locale } from '../i18n/index.tsx';
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

function Page() {
  const { path } = useLocation();
  // The purchase page (create-purchase-url links here) is a hosted page only, not an SDK handler route.
  const purchase = path.replace(/\/+$/, '');
  if (purchase === `${handlerPath}/purchase`) return <HostedPurchasePage />;
  if (purchase.startsWith(`${handlerPath}/purchase/`))
    return <HostedPurchasePage code={decodeURIComponent(purchase.slice(handlerPath.length + '/purchase/'.length))} />;
  return <HandlerPage path={path} basePath={handlerPath} pages={HOSTED_PAGES} notFound={HostedErrorPage} />;
}

function show(shown: Locale) {
  document.documentElement.lang = shown;
  render(
    // The element tree is React-typed; preact renders it (react is aliased to preact/compat).
    (
      <Location scope={handlerPath}>
        <GatehouseProvider app={app}>
          <BrandingContext.Provider value={config.project}>
            <CapabilitiesContext.Provider value={config.capabilities}>
              <SsoAvailableContext.Provider value={config.ssoAvailable ?? null}>
                <LocaleProvider locale={shown}>
                  {/* Pages other than sign-in and sign-up arrive as chunks of their own (./pages.tsx). */}
                  <Suspense fallback={<Spinner />}>
                    <Page />
                  </Suspense>
                </LocaleProvider>
              </SsoAvailableContext.Provider>
            </CapabilitiesContext.Provider>
          </BrandingContext.Provider>
        </GatehouseProvider>
      </Location>
    ) as unknown as Parameters<typeof render>[0],
    document.getElementById('root')!,
  );
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
