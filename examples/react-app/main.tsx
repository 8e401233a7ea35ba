/**
 * Example customer app: a React 19 single-page app that embeds Gatehouse's components through the
 * SDK, as an app using `gatehouse/react` would (`gatehouse/sdk` and `gatehouse/react` resolve to
 * this repository's `sdk/` and `ui/` when built with `build.mjs`). Routes:
 *   /app            public home with the UserButton
 *   /app/profile    protected (useUser({ or: 'redirect' })): shows the user and the team switcher
 *   /app/settings   the AccountSettings component embedded in the app's own layout
 */
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { ClientApp } from 'gatehouse/sdk';
import { AccountSettings, GatehouseProvider, SelectedTeamSwitcher, UserButton, useUser } from 'gatehouse/react';

const config = (window as unknown as { EXAMPLE_CONFIG: { projectId: string; baseUrl: string } }).EXAMPLE_CONFIG;

// One app per page; the cookie token store shares the session with the hosted /handler pages.
const app = new ClientApp({
  projectId: config.projectId,
  baseUrl: config.baseUrl,
  tokenStore: 'cookie',
  urls: { home: '/app', afterSignOut: '/app' },
});

function Profile() {
  const user = useUser({ or: 'redirect' });
  if (!user) return null;
  return (
    <section aria-labelledby="profile-title">
      <h1 id="profile-title">Welcome, <span data-testid="display-name">{user.displayName ?? 'friend'}</span></h1>
      <p>Signed in as <span data-testid="email">{user.primaryEmail}</span> ({user.primaryEmailVerified ? 'verified' : 'not verified'}).</p>
      <SelectedTeamSwitcher />
      <p><a href="/app/settings">Settings</a></p>
    </section>
  );
}

function Home() {
  const user = useUser();
  return <section><h1>Example app</h1><p>{user ? <a href="/app/profile">Your profile</a> : 'You are signed out.'}</p></section>;
}

function Page() {
  const path = location.pathname;
  if (path.startsWith('/app/profile')) return <Profile />;
  if (path.startsWith('/app/settings')) return <AccountSettings fullPage={false} />;
  return <Home />;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <GatehouseProvider app={app}>
      <header style={{ display: 'flex', justifyContent: 'space-between', padding: 12, fontFamily: 'system-ui' }}>
        <a href="/app">Example</a>
        <UserButton showUserInfo />
      </header>
      <main style={{ padding: 12, fontFamily: 'system-ui' }}>
        <Suspense fallback={<p role="status">Loading…</p>}><Page /></Suspense>
      </main>
    </GatehouseProvider>
  </StrictMode>,
);
