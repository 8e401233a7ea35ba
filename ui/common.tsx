import { Component, Suspense, createContext, useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { GatehouseKnownError, GatehouseNetworkError } from '../sdk/errors.ts';
import { useProject } from '../sdk/react.tsx';
import { GATEHOUSE_CSS } from './styles.ts';
import { isValidEmail } from '../core/validation.ts';

/** Project name and logo shown on every page (the hosted pages get them from the server). */
export interface Branding {
  displayName?: string;
  logoUrl?: string | null;
}

export const BrandingContext = createContext<Branding | null>(null);

/**
 * What the server can do (`core/operations/capabilities.ts`). The hosted pages provide the
 * server's answer, so no passkey or OAuth button is offered that would answer 404; in an app
 * without a provider the project's config alone decides.
 */
export const CapabilitiesContext = createContext<{ passkey: boolean; oauth: boolean }>({ passkey: true, oauth: true });

let styleInjected = false;
/** Injects the stylesheet once (browser only). */
function useStyles(): void {
  if (styleInjected || typeof document === 'undefined') return;
  styleInjected = true;
  const style = document.createElement('style');
  style.setAttribute('data-gatehouse', '');
  style.textContent = GATEHOUSE_CSS;
  document.head.appendChild(style);
}

/** The themed root every component renders inside (`theme`: follow the system, or force one). */
export function Root(props: { children?: ReactNode; theme?: 'light' | 'dark' }) {
  useStyles();
  return <div className="gh-root" data-theme={props.theme}>{props.children}</div>;
}

/** A spinner announced to screen readers. */
export function Spinner(props: { label?: string }) {
  return <div role="status" aria-live="polite" className="gh-row"><span className="gh-spinner" aria-hidden="true" /><span className="gh-muted">{props.label ?? 'Loading…'}</span></div>;
}

/** The human text for an error: spec §5 wording for validation, the server's message otherwise. */
export function errorText(error: unknown): string {
  if (error instanceof GatehouseKnownError) {
    const d = error.details;
    switch (error.code) {
      case 'EMAIL_PASSWORD_MISMATCH': return 'Wrong e-mail or password.';
      case 'USER_EMAIL_ALREADY_EXISTS': return 'A user with this email address already exists.';
      case 'PASSWORD_TOO_SHORT': return `Password must be at least ${String(d.min_length ?? 8)} characters long.`;
      case 'PASSWORD_TOO_LONG': return `Password must be at most ${String(d.maxLength ?? d.max_length ?? 70)} characters long.`;
      case 'PASSWORD_CONFIRMATION_MISMATCH': return 'The current password is not correct.';
      case 'VERIFICATION_CODE_NOT_FOUND': return 'This link or code is not valid.';
      case 'VERIFICATION_CODE_EXPIRED': return 'This link or code has expired. Please request a new one.';
      case 'VERIFICATION_CODE_ALREADY_USED': return 'This link or code has already been used.';
      case 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED': return 'Too many attempts. Please request a new code.';
      case 'EMAIL_ALREADY_VERIFIED': return 'This email is already verified.';
      case 'SIGN_UP_NOT_ENABLED': return 'Sign-up is not enabled for this project.';
      case 'INVALID_TOTP_CODE': return 'The code is not correct. Please try again.';
      default: return error.message;
    }
  }
  if (error instanceof GatehouseNetworkError) return (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false ? 'You are offline. Please check your internet connection and try again.' : error.message;
  return error instanceof Error ? error.message : String(error);
}

/** Client-side email check: the server's own rule (core/validation.ts, product-spec §5). */
export function emailProblem(email: string): string | null {
  const value = email.trim();
  if (!value) return 'Please enter your email address.';
  if (value.length > 256) return 'The email address is too long.';
  if (!isValidEmail(value)) return 'Please enter a valid email address.';
  return null;
}

/** Client-side password checks (product-spec §5): present, max 70, confirmation matches. */
export function passwordProblems(password: string, repeat?: string): { password?: string; repeat?: string } {
  const out: { password?: string; repeat?: string } = {};
  if (!password) out.password = 'Please enter a password.';
  else if (password.length > 70) out.password = 'Password must be at most 70 characters long.';
  if (repeat !== undefined && repeat !== password) out.repeat = 'Passwords do not match.';
  return out;
}

/** A labelled input with its error (announced, linked with aria-describedby). */
export function Field(props: { label: string; type?: string; value: string; onChange: (v: string) => void; error?: string | null; autoComplete?: string; autoFocus?: boolean; name?: string; inputMode?: 'text' | 'numeric' | 'email'; hint?: string }) {
  const id = useId();
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => { if (props.error) ref.current?.focus(); }, [props.error]);
  const described = [props.error ? `${id}-error` : '', props.hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="gh-field">
      <label htmlFor={id}>{props.label}</label>
      <input ref={ref} id={id} name={props.name} className="gh-input" type={props.type ?? 'text'} value={props.value} autoComplete={props.autoComplete} autoFocus={props.autoFocus} inputMode={props.inputMode}
        aria-invalid={props.error ? true : undefined} aria-describedby={described} onInput={(e) => props.onChange((e.target as HTMLInputElement).value)} onChange={(e) => props.onChange((e.target as HTMLInputElement).value)} />
      {props.hint ? <span id={`${id}-hint`} className="gh-muted">{props.hint}</span> : null}
      {props.error ? <span id={`${id}-error`} className="gh-error" role="alert">{props.error}</span> : null}
    </div>
  );
}

/** A form-level error message. */
export function FormError(props: { error: unknown }) {
  if (props.error === null || props.error === undefined) return null;
  return <p className="gh-error" role="alert">{errorText(props.error)}</p>;
}

/** A success message. */
export function Success(props: { children?: ReactNode }) {
  return <p className="gh-success" role="status">{props.children}</p>;
}

/** Runs async actions with a busy flag and a caught error. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const mounted = useRef(true);
  useEffect(() => () => { mounted.current = false; }, []);
  const run = async <T,>(fn: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await fn();
    } catch (e) {
      if (mounted.current) setError(e);
      return undefined;
    } finally {
      if (mounted.current) setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

/** A submit button that shows progress. */
export function Submit(props: { busy: boolean; children?: ReactNode; busyLabel?: string }) {
  return <button type="submit" className="gh-btn gh-primary" disabled={props.busy} aria-busy={props.busy}>{props.busy ? props.busyLabel ?? 'Please wait…' : props.children}</button>;
}

/** Catches render errors (a failed load) and shows them with a retry. */
export class ErrorBoundary extends Component<{ children?: ReactNode; fallback?: (error: unknown, reset: () => void) => ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    if (this.state.error !== null) {
      const reset = () => this.setState({ error: null });
      return this.props.fallback ? this.props.fallback(this.state.error, reset) : <div><FormError error={this.state.error} /><button type="button" className="gh-btn" onClick={reset}>Try again</button></div>;
    }
    return this.props.children;
  }
}

/** Suspense plus an error boundary: loading → content, or the error. */
export function Loader(props: { children?: ReactNode; label?: string }) {
  return <ErrorBoundary><Suspense fallback={<Spinner label={props.label} />}>{props.children}</Suspense></ErrorBoundary>;
}

function Brand(props: { name: string; logo?: string | null }) {
  return <div className="gh-brand">{props.logo ? <img src={props.logo} alt={`${props.name} logo`} /> : null}<span>{props.name}</span></div>;
}

function ProjectBrand() {
  return <Brand name={useProject().display_name} />;
}

function BrandInner() {
  const fromServer = useContext(BrandingContext);
  return fromServer?.displayName ? <Brand name={fromServer.displayName} logo={fromServer.logoUrl} /> : <ProjectBrand />;
}

/** The page frame: centered card with the project's logo and name, and a heading. */
export function AuthCard(props: { title: string; children?: ReactNode; wide?: boolean; fullPage?: boolean }) {
  const branding = useContext(BrandingContext);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (props.fullPage === false || typeof document === 'undefined') return;
    document.title = branding?.displayName ? `${props.title} · ${branding.displayName}` : props.title;
    // A new page (also after client-side navigation) starts at its heading for screen readers,
    // unless a field already took focus.
    if (!document.activeElement || document.activeElement === document.body) heading.current?.focus({ preventScroll: true });
  }, [props.title, props.fullPage, branding?.displayName]);
  const card = (
    <section className={`gh-card${props.wide ? ' gh-wide' : ''}`} aria-labelledby="gh-title">
      <ErrorBoundary fallback={() => null}><Suspense fallback={<div className="gh-brand" />}><BrandInner /></Suspense></ErrorBoundary>
      <h1 id="gh-title" ref={heading} tabIndex={-1}>{props.title}</h1>
      {props.children}
    </section>
  );
  return <Root>{props.fullPage === false ? card : <main className="gh-page">{card}</main>}</Root>;
}

/** The current query string's parameter (browser), or null. */
export function queryParam(name: string): string | null {
  const search = (globalThis as { location?: { search: string } }).location?.search ?? '';
  return new URLSearchParams(search).get(name);
}
