/**
 * Entry of the developer dashboard bundle (served at `/` by server-bin/dashboard.ts; built by
 * ui/dashboard/build.mjs with React aliased to preact/compat). The server inlines
 * `window.__GATEHOUSE_DASHBOARD__` (first-run state, the path it saw).
 */
import { render } from 'preact';
import { DashboardApi, type DashboardBoot } from './api.ts';
import { DashboardRoot } from './app.tsx';

const boot = (window as unknown as { __GATEHOUSE_DASHBOARD__: DashboardBoot }).__GATEHOUSE_DASHBOARD__;
const api = new DashboardApi(boot, { origin: location.origin, pathname: location.pathname });

// The element tree is React-typed; preact renders it (react is aliased to preact/compat).
render((<DashboardRoot api={api} />) as unknown as Parameters<typeof render>[0], document.getElementById('root')!);
