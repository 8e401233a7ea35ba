/**
 * Example customer app: a React 19 single-page app that embeds Gatehouse's components through the
 * packages `gatehouse-sdk` and `gatehouse-react` (`npm i gatehouse-sdk gatehouse-react react
 * react-dom`; inside this repository `build.mjs` resolves them to `sdk/` and `ui/`). Routes:
 *   /app            public home with the UserButton; signed out, the embedded SignIn form
 *   /app/profile    protected (useUser({ or: 'redirect' })): shows the user and the team switcher
 *   /app/settings   the AccountSettings component embedded in the app's own layout
 */
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { ClientApp } from 'gatehouse-sdk';
import { AccountSettings, GatehouseProvider, SelectedTeamSwitcher, SignIn, UserButton, useUser } from 'gatehouse-react';

/** Written into the page by the server (serve.mjs): which project, and where Gatehouse answers. */
interface ExampleConfig {
  projectId: string;
  /** Gatehouse's origin (plus mount path), without /api/v1. */
  baseUrl: string;
  publishableClientKey?: string;
  /** Where the project's hosted pages are, e.g. `/projects/<id>/handler` (default `/handler`). */
  handler?: string;
}
const config = (window as unknown as { EXAMPLE_CONFIG: ExampleConfig }).EXAMPLE_CONFIG;

// One app per page; the cookie token store shares the session with the hosted pages when they
// are on the same origin.
const app = new ClientApp({
  projectId: config.projectId,
  baseUrl: config.baseUrl,
  ...(config.publishableClientKey ? { publishableClientKey: config.publishableClientKey } : {}),
  tokenStore: 'cookie',
  urls: { home: '/app', afterSignIn: '/app', afterSignOut: '/app', ...(config.handler ? { handler: config.handler } : {}) },
});

function Profile() {
  const user = useUser({ or: 'redirect' });
  if (!user) return null;
  return (
    <section aria-labelledby="profile-title">
      <h1 id="profile-title">
        Welcome, <span data-testid="display-name">{user.displayName ?? 'friend'}</span>
      </h1>
      <p>
        Signed in as <span data-testid="email">{user.primaryEmail}</span> ({user.primaryEmailVerified ? 'verified' : 'not verified'}).
      </p>
      <SelectedTeamSwitcher />
      <p>
        <a href="/app/settings">Settings</a>
      </p>
    </section>
  );
}

function Home() {
  const user = useUser();
  if (!user)
    return (
      <section>
        <h1>Example app</h1>
        <p>You are signed out.</p>
        <SignIn />
      </section>
    );
  return (
    <section>
      <h1>Example app</h1>
      <p>
        Signed in as <span data-testid="home-email">{user.primaryEmail}</span>. <a href="/app/profile">Your profile</a>
      </p>
    </section>
  );
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
        <Suspense fallback={<p role="status">Loading…</p>}>
          <Page />
        </Suspense>
      </main>
    </GatehouseProvider>
  </StrictMode>,
);
