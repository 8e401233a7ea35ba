import { useEffect, useId, useLayoutEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { useApp, useUser } from '../../sdk/react.tsx';
import { Loader, Root } from '../common.tsx';
import { LocaleProvider, useT } from '../i18n/index.tsx';

function initials(name: string): string {
  return (
    name
      .split(/[\s@.]+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((p) => p[0]!.toUpperCase())
      .join('') || '?'
  );
}

/** Space kept between the menu and the viewport's edge, in CSS pixels. */
const EDGE_MARGIN = 8;

/**
 * Which edge of the button the menu lines up with so it stays inside the viewport: its right edge
 * (the menu opens leftwards, for an avatar at the right of a header) unless that would cross the
 * left edge of the viewport, then its left edge (a button near the left edge).
 *
 * @param button the button's rectangle in viewport pixels; `menuWidth` and `viewportWidth` in pixels.
 */
export function menuAlignment(button: { left: number; right: number }, menuWidth: number, viewportWidth: number): 'start' | 'end' {
  const fitsEnd = button.right - menuWidth >= EDGE_MARGIN;
  const fitsStart = button.left + menuWidth <= viewportWidth - EDGE_MARGIN;
  return fitsEnd || !fitsStart ? 'end' : 'start';
}

function UserButtonBody(props: { showUserInfo?: boolean }) {
  const app = useApp();
  const user = useUser();
  const t = useT();
  const menuId = useId();
  const [open, setOpen] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const [align, setAlign] = useState<'start' | 'end'>('end');
  // Measured before paint, so the menu never shows outside the viewport first.
  useLayoutEffect(() => {
    if (!open || !menuRef.current || !wrapper.current) return;
    const viewport = document.documentElement.clientWidth || window.innerWidth;
    setAlign(menuAlignment(wrapper.current.getBoundingClientRect(), menuRef.current.getBoundingClientRect().width, viewport));
  }, [open]);
  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus();
  }, [open]);
  // A press anywhere outside the menu closes it (without moving focus).
  useEffect(() => {
    if (!open) return;
    const onDown = (e: Event) => {
      if (!wrapper.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('mousedown', onDown);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('mousedown', onDown);
    };
  }, [open]);
  if (!user)
    return (
      <a href={app.signInUrlWithReturn()} className="gh-btn">
        {t('userButton.signIn')}
      </a>
    );
  const name = user.displayName ?? user.primaryEmail ?? t('userButton.menu');
  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  const onMenuKey = (e: KeyboardEvent) => {
    const items = Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? []);
    const i = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
    }
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      items[(i + 1) % items.length]?.focus();
    }
    if (e.key === 'ArrowUp') {
      e.preventDefault();
      items[(i - 1 + items.length) % items.length]?.focus();
    }
    if (e.key === 'Home') {
      e.preventDefault();
      items[0]?.focus();
    }
    if (e.key === 'End') {
      e.preventDefault();
      items[items.length - 1]?.focus();
    }
    // Tab leaves the menu (WAI-ARIA menu button pattern): close it and let focus move on.
    if (e.key === 'Tab') setOpen(false);
  };
  const onBlur = (e: FocusEvent) => {
    if (open && e.relatedTarget && !wrapper.current?.contains(e.relatedTarget as Node)) setOpen(false);
  };
  return (
    <div className="gh-menu" ref={wrapper} onBlur={onBlur}>
      {/* The spoken name is the visible text (the user's name) plus what the button opens. */}
      <button
        ref={buttonRef}
        type="button"
        className="gh-btn gh-row"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
      >
        <span className="gh-avatar" aria-hidden="true">
          {user.profileImageUrl ? <img src={user.profileImageUrl} alt="" width={32} height={32} /> : initials(name)}
        </span>
        <span className={props.showUserInfo ? undefined : 'gh-sr-only'}>{name}</span>
        <span className="gh-sr-only">{`, ${t('userButton.menu')}`}</span>
      </button>
      {open ? (
        <div ref={menuRef} id={menuId} role="menu" aria-label={t('userButton.menu')} data-align={align} onKeyDown={onMenuKey}>
          <div className="gh-muted" style={{ padding: '6px 10px' }} role="none">
            {user.primaryEmail}
          </div>
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            onClick={() => {
              setOpen(false);
              void app.redirectToAccountSettings();
            }}
          >
            {t('common.accountSettings')}
          </button>
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            onClick={() => {
              setOpen(false);
              void app.signOut();
            }}
          >
            {t('common.signOut')}
          </button>
        </div>
      ) : null}
    </div>
  );
}

function UserButtonLoader(props: { showUserInfo?: boolean }) {
  const t = useT();
  return (
    <Root>
      <Loader label={t('common.loading')}>
        <UserButtonBody showUserInfo={props.showUserInfo} />
      </Loader>
    </Root>
  );
}

/**
 * Avatar button with a keyboard-navigable menu: account settings and sign out (or a sign-in
 * link). The menu closes on Escape (focus back on the button), on Tab and on a press outside.
 */
export function UserButton(props: { showUserInfo?: boolean; locale?: string }) {
  return props.locale ? (
    <LocaleProvider locale={props.locale}>
      <UserButtonLoader showUserInfo={props.showUserInfo} />
    </LocaleProvider>
  ) : (
    <UserButtonLoader showUserInfo={props.showUserInfo} />
  );
}
