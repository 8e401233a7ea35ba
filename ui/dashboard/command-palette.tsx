import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { Search, User, UsersRound } from 'lucide';
import type { Page } from './api.ts';
import { Icon, type IconNode } from '../icon.tsx';
import { Dialog } from './controls/dialog.tsx';
import { useApi } from './kit.tsx';
import { DASHBOARD_PAGES, projectPages } from './nav.tsx';
import { useRouter } from './router.tsx';
import type { WireUser } from './pages/users.tsx';

interface Item {
  key: string;
  label: string;
  kind: string;
  to: string;
  icon: IconNode;
}

/** Most users and teams listed for one query. */
const LIMIT = 5;

/**
 * The command palette (⌘K / Ctrl+K, or the sidebar's "Search" button): a combobox over the
 * dashboard's pages, the current project's pages, and its users and teams (searched through
 * `GET /users?query=` and `GET /teams`, filtered by name, as you type). Arrow keys move, Enter
 * opens, Escape closes and returns focus (WAI-ARIA APG combobox with listbox popup).
 */
export function CommandPalette(props: {
  open: boolean;
  onClose: () => void;
  projectId?: string;
  assistant: boolean;
  serverOwner: boolean;
}) {
  const api = useApi();
  const { navigate } = useRouter();
  const id = useId();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [found, setFound] = useState<Item[]>([]);
  const q = query.trim().toLowerCase();
  useEffect(() => {
    if (!props.open) setQuery('');
  }, [props.open]);
  useEffect(() => {
    setActive(0);
    const projectId = props.projectId;
    if (!props.open || !projectId || !q) {
      setFound([]);
      return;
    }
    let live = true;
    const admin = api.admin(projectId);
    const timer = setTimeout(() => {
      void Promise.all([
        (admin('users.list', { query: { limit: LIMIT, query: q } }) as Promise<Page<WireUser>>).catch(() => ({ items: [] as WireUser[] })),
        (admin('teams.list') as Promise<Page<{ id: string; display_name: string }>>).catch(() => ({ items: [] })),
      ]).then(([users, teams]) => {
        if (!live) return;
        setFound([
          ...users.items.slice(0, LIMIT).map((u) => ({
            key: `u-${u.id}`,
            label: u.display_name ? `${u.display_name} (${u.primary_email ?? u.id})` : (u.primary_email ?? u.id),
            kind: 'User',
            to: `/projects/${projectId}/users/${u.id}`,
            icon: User,
          })),
          ...teams.items
            .filter((t) => t.display_name.toLowerCase().includes(q))
            .slice(0, LIMIT)
            .map((t) => ({
              key: `t-${t.id}`,
              label: t.display_name,
              kind: 'Team',
              to: `/projects/${projectId}/teams/${t.id}`,
              icon: UsersRound,
            })),
        ]);
      });
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [q, props.open, props.projectId]);
  const pages: Item[] = [
    ...(props.projectId
      ? projectPages(props.assistant).map((p) => ({
          key: `p${p.path}`,
          label: p.label,
          kind: 'Page',
          to: `/projects/${props.projectId}${p.path}`,
          icon: p.icon,
        }))
      : []),
    ...DASHBOARD_PAGES.filter((p) => !p.serverOwner || props.serverOwner).map((p) => ({
      key: `d${p.path}`,
      label: p.label,
      kind: 'Dashboard',
      to: p.path,
      icon: p.icon,
    })),
  ].filter((p) => !q || p.label.toLowerCase().includes(q));
  const items = [...pages, ...found];
  const current = Math.min(active, items.length - 1);
  const go = (item: Item | undefined) => {
    if (!item) return;
    props.onClose();
    navigate(item.to);
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown') setActive((current + 1) % Math.max(1, items.length));
    else if (e.key === 'ArrowUp') setActive((current - 1 + items.length) % Math.max(1, items.length));
    else if (e.key === 'Enter') go(items[current]);
    else return;
    e.preventDefault();
  };
  return (
    <Dialog title="Go to" open={props.open} onClose={props.onClose}>
      <div className="d-palette">
        <input
          type="text"
          role="combobox"
          aria-label="Search pages, users and teams"
          aria-expanded="true"
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          aria-activedescendant={items[current] ? `${id}-${items[current].key}` : undefined}
          placeholder="Search pages, users and teams…"
          value={query}
          onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
          onChange={(e) => setQuery((e.target as HTMLInputElement).value)}
          onKeyDown={onKey}
        />
        <ul role="listbox" id={`${id}-list`} aria-label="Results">
          {items.map((item, i) => (
            <li
              key={item.key}
              id={`${id}-${item.key}`}
              role="option"
              aria-selected={i === current}
              onMouseMove={() => setActive(i)}
              onClick={() => go(item)}
            >
              <Icon icon={item.icon} />
              <span>{item.label}</span>
              <span className="d-palette-kind">{item.kind}</span>
            </li>
          ))}
          {items.length === 0 && (
            <li role="option" aria-selected="false" aria-disabled="true">
              <Icon icon={Search} />
              Nothing matches “{query.trim()}”.
            </li>
          )}
        </ul>
      </div>
    </Dialog>
  );
}

/** Opens the palette on ⌘K (macOS) or Ctrl+K. */
export function usePaletteShortcut(open: () => void): void {
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        open();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
}
