import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useApp, useUser } from '../../sdk/react.tsx';
import { Loader, Root } from '../common.tsx';

function initials(name: string): string {
  return name.split(/[\s@.]+/).filter(Boolean).slice(0, 2).map((p) => p[0]!.toUpperCase()).join('') || '?';
}

function UserButtonBody(props: { showUserInfo?: boolean }) {
  const app = useApp();
  const user = useUser();
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus();
  }, [open]);
  if (!user) return <a href={app.signInUrlWithReturn()} className="gh-btn">Sign in</a>;
  const name = user.displayName ?? user.primaryEmail ?? 'Account';
  const close = () => { setOpen(false); buttonRef.current?.focus(); };
  const onMenuKey = (e: KeyboardEvent) => {
    const items = Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? []);
    const i = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Escape') { e.preventDefault(); close(); }
    if (e.key === 'ArrowDown') { e.preventDefault(); items[(i + 1) % items.length]?.focus(); }
    if (e.key === 'ArrowUp') { e.preventDefault(); items[(i - 1 + items.length) % items.length]?.focus(); }
  };
  return (
    <div className="gh-menu">
      <button ref={buttonRef} type="button" className="gh-btn gh-row" aria-haspopup="menu" aria-expanded={open} aria-label={`Account menu for ${name}`} onClick={() => setOpen(!open)}>
        <span className="gh-avatar" aria-hidden="true">{user.profileImageUrl ? <img src={user.profileImageUrl} alt="" width={32} height={32} /> : initials(name)}</span>
        {props.showUserInfo ? <span>{name}</span> : null}
      </button>
      {open ? (
        <div ref={menuRef} role="menu" aria-label="Account" onKeyDown={onMenuKey}>
          <div className="gh-muted" style={{ padding: '6px 10px' }}>{user.primaryEmail}</div>
          <button type="button" role="menuitem" onClick={() => { setOpen(false); void app.redirectToAccountSettings(); }}>Account settings</button>
          <button type="button" role="menuitem" onClick={() => { setOpen(false); void app.signOut(); }}>Sign out</button>
        </div>
      ) : null}
    </div>
  );
}

/** Avatar button with a keyboard-navigable menu: account settings and sign out (or a sign-in link). */
export function UserButton(props: { showUserInfo?: boolean }) {
  return <Root><Loader label="Loading account…"><UserButtonBody showUserInfo={props.showUserInfo} /></Loader></Root>;
}
