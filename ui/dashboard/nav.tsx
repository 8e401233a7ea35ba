import {
  BookOpen,
  Building2,
  CreditCard,
  FolderKanban,
  Key,
  KeyRound,
  LayoutDashboard,
  Lock,
  Mail,
  Plug,
  Server,
  Settings,
  ShieldCheck,
  SlidersHorizontal,
  Sparkles,
  Upload,
  Users,
  UsersRound,
  Webhook,
} from 'lucide';
import { Icon, type IconNode } from '../icon.tsx';
import { Link } from './router.tsx';

/** A page of a project: its path under `/projects/<id>`, label and icon. */
export interface ProjectPageLink {
  path: string;
  label: string;
  icon: IconNode;
}

/** The sidebar's groups of project pages (the command palette lists the same pages). */
export const PROJECT_GROUPS: { title: string | null; pages: ProjectPageLink[] }[] = [
  {
    title: null,
    pages: [
      { path: '', label: 'Overview', icon: LayoutDashboard },
      { path: '/connect', label: 'Connect your app', icon: Plug },
    ],
  },
  {
    title: 'Build',
    pages: [
      { path: '/auth-methods', label: 'Auth methods', icon: KeyRound },
      { path: '/keys', label: 'Project keys', icon: Key },
      { path: '/emails', label: 'Emails', icon: Mail },
      { path: '/webhooks', label: 'Webhooks', icon: Webhook },
      { path: '/payments', label: 'Payments', icon: CreditCard },
      { path: '/data-vault', label: 'Data vault', icon: Lock },
      { path: '/assistant', label: 'Assistant', icon: Sparkles },
    ],
  },
  {
    title: 'Users',
    pages: [
      { path: '/users', label: 'Users', icon: Users },
      { path: '/teams', label: 'Teams', icon: UsersRound },
      { path: '/permissions', label: 'Permissions', icon: ShieldCheck },
      { path: '/import', label: 'Import users', icon: Upload },
    ],
  },
  {
    title: 'Settings',
    pages: [
      { path: '/config', label: 'Configuration', icon: SlidersHorizontal },
      { path: '/settings', label: 'Project settings', icon: Settings },
    ],
  },
];

/** Dashboard-wide pages (outside any project). */
export const DASHBOARD_PAGES: { path: string; label: string; icon: IconNode; serverOwner?: boolean }[] = [
  { path: '/', label: 'All projects', icon: FolderKanban },
  { path: '/team', label: 'Your teams', icon: Building2 },
  { path: '/server-settings', label: 'Server settings', icon: Server, serverOwner: true },
  { path: '/api-reference', label: 'API reference', icon: BookOpen },
];

/** The project pages offered (the assistant only when the server has a model endpoint). */
export function projectPages(assistant: boolean): ProjectPageLink[] {
  return PROJECT_GROUPS.flatMap((g) => g.pages).filter((p) => p.path !== '/assistant' || assistant);
}

/**
 * The project's navigation: pages grouped under Build, Users and Settings headings, each with its
 * icon; the current page has `aria-current="page"`.
 */
export function ProjectNav(props: { projectId: string; sub: string; assistant: boolean }) {
  const { sub } = props;
  return (
    <nav aria-label="Project">
      {PROJECT_GROUPS.map((group) => {
        const pages = group.pages.filter((p) => p.path !== '/assistant' || props.assistant);
        const headingId = group.title ? `nav-${group.title.toLowerCase()}` : undefined;
        return (
          <div key={group.title ?? 'top'} role={group.title ? 'group' : undefined} aria-labelledby={headingId}>
            {group.title && (
              <div className="d-nav-group" id={headingId}>
                {group.title}
              </div>
            )}
            {pages.map((p) => (
              <Link
                key={p.path}
                to={`/projects/${props.projectId}${p.path}`}
                aria-current={sub === p.path || (p.path !== '' && sub.startsWith(p.path + '/')) ? 'page' : undefined}
              >
                <Icon icon={p.icon} />
                {p.label}
              </Link>
            ))}
          </div>
        );
      })}
    </nav>
  );
}

/** Dashboard-wide navigation (projects, teams, server settings for its owner, API reference). */
export function DashboardNav(props: { route: string; inProject: boolean; serverOwner: boolean }) {
  const known = DASHBOARD_PAGES.map((p) => p.path).filter((p) => p !== '/');
  return (
    <nav aria-label="Dashboard">
      <div className="d-nav-group">Dashboard</div>
      {DASHBOARD_PAGES.filter((p) => !p.serverOwner || props.serverOwner).map((p) => {
        const current = p.path === '/' ? !props.inProject && !known.includes(props.route) : props.route === p.path;
        return (
          <Link key={p.path} to={p.path} aria-current={current ? 'page' : undefined}>
            <Icon icon={p.icon} />
            {p.label}
          </Link>
        );
      })}
    </nav>
  );
}
