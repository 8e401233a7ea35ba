/**
 * The hosted pages' element tree below the router, shared by the browser entry (./main.tsx) and
 * the server's first render of sign-in and sign-up (./server-render.tsx): one source of truth for
 * the markup the server sends and the tree the browser then renders in its place.
 */
import { Suspense, type ReactNode } from 'react';
import type { ClientApp } from '../../sdk/client-app.ts';
import { GatehouseProvider } from '../../sdk/react.tsx';
import { BrandingContext, CapabilitiesContext, Spinner } from '../common.tsx';
import { HandlerPage } from '../components/handler-routes.tsx';
import { SsoAvailableContext } from '../components/sso-discovery.tsx';
import { LocaleProvider, type Locale } from '../i18n/index.tsx';
import type { HostedConfig } from './config.ts';
import { HOSTED_PAGES, HostedErrorPage, HostedPurchasePage } from './pages.tsx';

/** The page at `path` (a path under `handlerPath`, as the router or the server sees it). */
export function HostedPage(props: { path: string; handlerPath: string }) {
  const { handlerPath } = props;
  // The purchase page (create-purchase-url links here) is a hosted page only, not an SDK handler route.
  const purchase = props.path.replace(/\/+$/, '');
  if (purchase === `${handlerPath}/purchase`) return <HostedPurchasePage />;
  if (purchase.startsWith(`${handlerPath}/purchase/`))
    return <HostedPurchasePage code={decodeURIComponent(purchase.slice(handlerPath.length + '/purchase/'.length))} />;
  return <HandlerPage path={props.path} basePath={handlerPath} pages={HOSTED_PAGES} notFound={HostedErrorPage} />;
}

/** The providers every hosted page renders inside: the SDK app, branding, capabilities, SSO, language. */
export function HostedProviders(props: { app: ClientApp; config: HostedConfig; locale: Locale; children: ReactNode }) {
  const { config } = props;
  return (
    <GatehouseProvider app={props.app}>
      <BrandingContext.Provider value={config.project}>
        <CapabilitiesContext.Provider value={config.capabilities}>
          <SsoAvailableContext.Provider value={config.ssoAvailable ?? null}>
            <LocaleProvider locale={props.locale}>
              {/* Pages other than sign-in and sign-up arrive as chunks of their own (./pages.tsx). */}
              <Suspense fallback={<Spinner />}>{props.children}</Suspense>
            </LocaleProvider>
          </SsoAvailableContext.Provider>
        </CapabilitiesContext.Provider>
      </BrandingContext.Provider>
    </GatehouseProvider>
  );
}
