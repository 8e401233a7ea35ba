import { LOGO_DATA_URL } from '../logo.ts';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { DashboardApi } from './api.ts';
import { GatehouseKnownError } from '../../sdk/errors.ts';
import { ApiContext, Async, useApi, useLoad } from './kit.tsx';
import { Link, Router, useRouter } from './router.tsx';
import { DASHBOARD_CSS } from './styles.ts';
import { LogOut, Menu, Search } from 'lucide';
import { Icon } from '../icon.tsx';
import { CommandPalette, usePaletteShortcut } from './command-palette.tsx';
import { DashboardNav, ProjectNav } from './nav.tsx';
import { ToastProvider } from './controls/toast.tsx';
import { AuthPage } from './pages/auth.tsx';
import { ProjectList } from './pages/projects.tsx';
import { Overview } from './pages/overview.tsx';
import { ProjectSettings } from './pages/settings.tsx';
import { KeysPage } from './pages/keys.tsx';
import { AuthMethodsPage } from './pages/auth-methods.tsx';
import { ConnectPage } from './pages/connect.tsx';
import { UsersPage } from './pages/users.tsx';
import { UserPage } from './pages/user.tsx';
import { TeamsPage, TeamPage } from './pages/teams.tsx';
import { PermissionsPage } from './pages/permissions.tsx';
import { EmailsPage } from './pages/emails.tsx';
import { WebhooksPage } from './pages/webhooks.tsx';
import { ConfigPage } from './pages/config.tsx';
import { DataVaultPage } from './pages/data-vault.tsx';
import { ImportUsersPage } from './pages/import-users.tsx';
import { PaymentsPage } from './pages/payments.tsx';
import { OwnerTeamsPage } from './pages/owner-teams.tsx';
import { AssistantPage } from './pages/assistant.tsx';
import { ServerSettingsPage, type AssistantSettings } from './pages/server-settings.tsx';
import { ApiReferencePage } from './pages/api-reference.tsx';
import type { AdminProject } from './project.ts';

let styled = false;
function useStyles() {
  if (styled || typeof document === 'undefined') return;
  styled = true;
  const style = document.createElement('style');
  style.textContent = DASHBOARD_CSS;
  document.head.appendChild(style);
}

/** The whole dashboard: API provider, router, and the signed-in / signed-out switch. */
export function DashboardRoot(props: { api: DashboardApi }) {
  useStyles();
  return (
    <ApiContext.Provider value={props.api}>
      <Router prefix={props.api.prefix}>
        <ToastProvider>
          <Gate />
        </ToastProvider>
      </Router>
    </ApiContext.Provider>
  );
}

function Gate() {
  const api = useApi();
  const [signedIn, setSignedIn] = useState(api.signedIn);
  const { route, navigate } = useRouter();
  // Follow sign-out in another tab (the cookie store is polled by the SDK).
  useEffect(() => api.app.onSessionChange(() => setSignedIn(api.signedIn)), [api]);
  const onSignedIn = useCallback(() => {
    setSignedIn(true);
    navigate('/', { replace: true });
  }, [navigate]);
  if (!signedIn) return <AuthPage onSignedIn={onSignedIn} />;
  return (
    <SignedIn
      onSignedOut={() => {
        setSignedIn(false);
        navigate('/', { replace: true });
      }}
      route={route.path}
    />
  );
}

/** Answers to `GET /users/me` that mean the owner's session is gone. */
const SESSION_GONE_CODES = [
  'CANNOT_GET_OWN_USER_WITHOUT_USER',
  'USER_AUTHENTICATION_REQUIRED',
  'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED',
  'INVALID_ACCESS_TOKEN',
  'UNPARSABLE_ACCESS_TOKEN',
  'ACCESS_TOKEN_EXPIRED',
  'USER_NOT_FOUND',
];

function SignedIn(props: { onSignedOut: () => void; route: string }) {
  const api = useApi();
  const me = useLoad(() => api.internal('users.getCurrent'), []);
  // A session the server no longer accepts (revoked, expired refresh token): back to sign-in.
  useEffect(() => {
    if (me.error instanceof GatehouseKnownError && SESSION_GONE_CODES.includes(me.error.code)) {
      void api.app
        .signOut({ noRedirect: true })
        .catch(() => {})
        .then(props.onSignedOut);
    }
  }, [me.error]);
  const projects = useLoad(() => api.internal('projects.list'), []);
  // The assistant's page is offered only when the server has a model endpoint.
  const assistant = useLoad(
    () => api.internal('aiChat.getSettings').catch((): AssistantSettings => ({ configured: false, editable: false })),
    [],
  );
  const m = /^\/projects\/([0-9a-f-]{36})(\/.*)?$/i.exec(props.route);
  const projectId = m?.[1];
  const sub = m?.[2] ?? '';
  const signOut = async () => {
    await api.app.signOut({ noRedirect: true }).catch(() => {});
    props.onSignedOut();
  };
  const [menuOpen, setMenuOpen] = useState(false);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const openPalette = useCallback(() => setPaletteOpen(true), []);
  usePaletteShortcut(openPalette);
  const main = useRef<HTMLElement>(null);
  const firstRoute = useRef(true);
  // A route change closes the small-screen menu and moves focus to the new page's heading (or
  // the main region while it loads), so keyboard and screen-reader users start at the content.
  useEffect(() => {
    setMenuOpen(false);
    if (firstRoute.current) {
      firstRoute.current = false;
      return;
    }
    const target = main.current?.querySelector<HTMLElement>('h1') ?? main.current;
    if (target) {
      target.tabIndex = -1;
      target.focus({ preventScroll: true });
    }
  }, [props.route]);
  useDocumentTitle(main, projects.data?.items.find((p) => p.id === projectId)?.display_name);
  return (
    <div className="d-app">
      <a
        className="d-skip"
        href="#d-main"
        onClick={(e) => {
          e.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      <aside className="d-side" data-open={menuOpen ? '' : undefined}>
        <div className="d-side-head">
          <Link to="/" className="d-brand">
            <img src={LOGO_DATA_URL} alt="" width={22} height={22} />
            Gatehouse
          </Link>
          <button
            type="button"
            className="d-btn d-menu-btn"
            aria-expanded={menuOpen}
            aria-controls="d-nav"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            <Icon icon={Menu} />
            Menu
          </button>
        </div>
        <div className="d-nav" id="d-nav">
          {projectId && <ProjectSwitcher projects={projects.data?.items ?? []} current={projectId} />}
          <button type="button" className="d-btn d-palette-btn" aria-haspopup="dialog" onClick={openPalette}>
            <span className="d-row">
              <Icon icon={Search} />
              Search
            </span>
            <kbd className="d-kbd" aria-hidden="true">
              {isMac() ? '⌘K' : 'Ctrl K'}
            </kbd>
          </button>
          {projectId && <ProjectNav projectId={projectId} sub={sub} assistant={assistant.data?.configured ?? false} />}
          <DashboardNav route={props.route} inProject={Boolean(projectId)} serverOwner={assistant.data?.editable ?? false} />
          <div className="d-muted" style={{ marginTop: 24, fontSize: '.85rem' }}>
            <div data-testid="signed-in-as">{me.data?.primary_email ?? me.data?.display_name ?? ''}</div>
            <button type="button" className="d-link" onClick={signOut}>
              <Icon icon={LogOut} size={14} /> Sign out
            </button>
          </div>
        </div>
      </aside>
      <main className="d-main" id="d-main" ref={main} tabIndex={-1}>
        {props.route === '/team' ? (
          <OwnerTeamsPage />
        ) : props.route === '/server-settings' ? (
          <ServerSettingsPage />
        ) : props.route === '/api-reference' ? (
          <ApiReferencePage />
        ) : !projectId ? (
          <ProjectList projects={projects} />
        ) : (
          <Async state={projects} label="Loading project…">
            {(list) => {
              const project = list.items.find((p) => p.id === projectId);
              if (!project)
                return (
                  <div className="d-empty">
                    This project does not exist or you do not manage it. <Link to="/">All projects</Link>
                  </div>
                );
              return (
                <ProjectPage project={project} sub={sub} onChanged={projects.reload} assistant={assistant.data?.configured ?? false} />
              );
            }}
          </Async>
        )}
      </main>
      <CommandPalette
        open={paletteOpen}
        onClose={() => setPaletteOpen(false)}
        projectId={projectId}
        assistant={assistant.data?.configured ?? false}
        serverOwner={assistant.data?.editable ?? false}
      />
    </div>
  );
}

/** True on Apple platforms (the palette's shortcut is shown as ⌘K there). */
function isMac(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

/**
 * Keeps `document.title` naming the page: its first heading, the project, then "Gatehouse"
 * (WCAG 2.4.2). Pages load their heading asynchronously, so the main region is observed.
 */
function useDocumentTitle(main: { current: HTMLElement | null }, project: string | undefined) {
  useEffect(() => {
    const node = main.current;
    if (!node || typeof MutationObserver === 'undefined') return;
    const update = () => {
      const heading = node.querySelector('h1')?.textContent?.trim();
      const parts = [heading, project && project !== heading ? project : undefined, 'Gatehouse'].filter(Boolean);
      const title = parts.join(' · ');
      if (document.title !== title) document.title = title;
    };
    update();
    const observer = new MutationObserver(update);
    observer.observe(node, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [main, project]);
}

function ProjectSwitcher(props: { projects: AdminProject[]; current: string }) {
  const { navigate } = useRouter();
  return (
    <div className="d-field" style={{ marginBottom: 12 }}>
      <label htmlFor="project-switcher">Project</label>
      <select id="project-switcher" value={props.current} onChange={(e) => navigate(`/projects/${(e.target as HTMLSelectElement).value}`)}>
        {props.projects.map((p) => (
          <option key={p.id} value={p.id}>
            {p.display_name}
          </option>
        ))}
      </select>
    </div>
  );
}

function ProjectPage(props: { project: AdminProject; sub: string; onChanged: () => void; assistant: boolean }) {
  const { project, sub } = props;
  let body: ReactNode;
  const user = /^\/users\/([0-9a-f-]{36})$/i.exec(sub);
  const team = /^\/teams\/([0-9a-f-]{36})$/i.exec(sub);
  if (sub === '') body = <Overview project={project} />;
  else if (sub === '/connect') body = <ConnectPage project={project} />;
  else if (sub === '/settings') body = <ProjectSettings project={project} onChanged={props.onChanged} />;
  else if (sub === '/keys') body = <KeysPage project={project} />;
  else if (sub === '/auth-methods') body = <AuthMethodsPage project={project} onChanged={props.onChanged} />;
  else if (sub === '/users') body = <UsersPage project={project} />;
  else if (user) body = <UserPage project={project} userId={user[1]!} />;
  else if (sub === '/teams') body = <TeamsPage project={project} />;
  else if (team) body = <TeamPage project={project} teamId={team[1]!} />;
  else if (sub === '/permissions') body = <PermissionsPage project={project} />;
  else if (sub === '/emails') body = <EmailsPage project={project} onChanged={props.onChanged} />;
  else if (sub === '/webhooks') body = <WebhooksPage project={project} />;
  else if (sub === '/data-vault') body = <DataVaultPage project={project} />;
  else if (sub === '/import') body = <ImportUsersPage project={project} />;
  else if (sub === '/payments') body = <PaymentsPage project={project} />;
  else if (sub === '/config') body = <ConfigPage project={project} onChanged={props.onChanged} />;
  else if (sub === '/assistant')
    body = props.assistant ? (
      <AssistantPage project={project} />
    ) : (
      <div className="d-empty">
        The assistant is not configured on this server. The operator sets GATEHOUSE_AI_BASE_URL and GATEHOUSE_AI_MODEL, or fills in Server
        settings.
      </div>
    );
  else
    body = (
      <div className="d-empty">
        No such page. <Link to={`/projects/${project.id}`}>Overview</Link>
      </div>
    );
  return <div key={project.id}>{body}</div>;
}
