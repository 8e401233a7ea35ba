import { createContext, useContext, useEffect, useState, type MouseEvent, type ReactNode } from 'react';

/** The current client route: path under the mount prefix and its query. */
export interface Route {
  path: string;
  query: URLSearchParams;
}

interface RouterValue {
  route: Route;
  navigate(to: string, options?: { replace?: boolean }): void;
  prefix: string;
}

const RouterContext = createContext<RouterValue | null>(null);

function read(prefix: string): Route {
  const p = location.pathname.startsWith(prefix) ? location.pathname.slice(prefix.length) : location.pathname;
  return { path: p.replace(/\/+$/, '') || '/', query: new URLSearchParams(location.search) };
}

/** History-API router (no dependency): routes are paths under the mount prefix. */
export function Router(props: { prefix: string; children: ReactNode }) {
  const [route, setRoute] = useState<Route>(() => read(props.prefix));
  useEffect(() => {
    const onPop = () => setRoute(read(props.prefix));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [props.prefix]);
  const navigate = (to: string, options: { replace?: boolean } = {}) => {
    const url = props.prefix + to;
    if (options.replace) history.replaceState(null, '', url);
    else history.pushState(null, '', url);
    setRoute(read(props.prefix));
    window.scrollTo?.(0, 0);
  };
  return <RouterContext.Provider value={{ route, navigate, prefix: props.prefix }}>{props.children}</RouterContext.Provider>;
}

/** The router (throws outside `<Router>`). */
export function useRouter(): RouterValue {
  const r = useContext(RouterContext);
  if (!r) throw new Error('useRouter outside <Router>');
  return r;
}

/** An in-app link: a real `<a href>` that navigates without reloading. */
export function Link(props: { to: string; children: ReactNode; className?: string; 'aria-current'?: 'page' | undefined }) {
  const { navigate, prefix } = useRouter();
  const onClick = (e: MouseEvent) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(props.to);
  };
  return (
    <a href={prefix + props.to} onClick={onClick} className={props.className} aria-current={props['aria-current']}>
      {props.children}
    </a>
  );
}
