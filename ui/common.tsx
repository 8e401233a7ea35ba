import {
  Component,
  Suspense,
  createContext,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import { GatehouseKnownError, GatehouseNetworkError, GatehouseStatusError } from '../sdk/errors.ts';
import { useProject } from '../sdk/react.tsx';
import { GATEHOUSE_CSS } from './styles.ts';
import { accentCss } from './brand-colors.ts';
import { LocaleProvider, useT, type MessageKey, type Messages, type Translate } from './i18n/index.tsx';
import { isValidEmail, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../core/validation.ts';

/**
 * Project branding shown on every page (the hosted pages get it from the server; apps may
 * provide it): name, logo, accent colours for light and dark mode, terms and privacy links.
 */
export interface Branding {
  displayName?: string;
  logoUrl?: string | null;
  /** Accent (buttons, links, focus rings) in light mode, `#rrggbb`. */
  accentLight?: string | null;
  /** Accent in dark mode, `#rrggbb`. */
  accentDark?: string | null;
  /** Terms of service, shown under the sign-in and sign-up forms. */
  termsUrl?: string | null;
  /** Privacy policy, shown under the sign-in and sign-up forms. */
  privacyUrl?: string | null;
}

export const BrandingContext = createContext<Branding | null>(null);

/**
 * What the server can do (`core/operations/capabilities.ts`). The hosted pages provide the
 * server's answer, so no passkey or OAuth button is offered that would answer 404; in an app
 * without a provider the project's config alone decides.
 */
export const CapabilitiesContext = createContext<{ passkey: boolean; oauth: boolean; mfa: boolean }>({
  passkey: true,
  oauth: true,
  mfa: true,
});

let styleInjected = false;
/** Injects the stylesheet once (browser only). */
function useStyles(): void {
  if (styleInjected || typeof document === 'undefined') return;
  styleInjected = true;
  // A server-rendered hosted page sends the sheet in its head (ui/hosted/server-render.tsx).
  if (document.querySelector('style[data-gatehouse]')) return;
  const style = document.createElement('style');
  style.setAttribute('data-gatehouse', '');
  style.textContent = GATEHOUSE_CSS;
  document.head.appendChild(style);
}

/** The themed root every component renders inside (`theme`: follow the system, or force one). */
export function Root(props: { children?: ReactNode; theme?: 'light' | 'dark' }) {
  useStyles();
  const branding = useContext(BrandingContext);
  const t = useT();
  const custom = accentCss(branding?.accentLight, branding?.accentDark);
  return (
    <div className="gh-root" data-theme={props.theme} lang={t.locale}>
      {custom ? <style>{custom}</style> : null}
      {props.children}
    </div>
  );
}

/** Props every page component takes: inside another page (`fullPage: false`) and its language. */
export interface PageProps {
  fullPage?: boolean;
  /** Language of the page (`en`, `de`, or a BCP 47 tag such as `de-AT`); English by default. */
  locale?: string;
  /** The app's own wording for single messages. */
  messages?: Partial<Messages>;
}

/** Wraps a page component so that its `locale` and `messages` props apply to everything inside. */
export function withLocale<P extends PageProps>(Inner: ComponentType<P>): ComponentType<P> {
  const Localized = (props: P) =>
    props.locale || props.messages ? (
      <LocaleProvider locale={props.locale} messages={props.messages}>
        <Inner {...props} />
      </LocaleProvider>
    ) : (
      <Inner {...props} />
    );
  Localized.displayName = Inner.displayName ?? Inner.name;
  return Localized;
}

/** A spinner announced to screen readers. */
export function Spinner(props: { label?: string }) {
  const t = useT();
  return (
    <div role="status" aria-live="polite" className="gh-row">
      <span className="gh-spinner" aria-hidden="true" />
      <span className="gh-muted">{props.label ?? t('common.loading')}</span>
    </div>
  );
}

/** An error whose text is already a message of the catalogue (client-side problems). */
export class MessageError extends Error {
  readonly key: MessageKey;
  readonly vars?: Record<string, string | number>;
  constructor(key: MessageKey, vars?: Record<string, string | number>) {
    super(key);
    this.key = key;
    this.vars = vars;
  }
}

/**
 * The words an end user sees for an error: a fixed catalogue message for every known code and
 * for network and server failures. Transport details (paths, statuses, "Failed to fetch") are
 * never shown; unknown codes get the server's own sentence, which names no internals.
 */
export function errorText(error: unknown, t: Translate): string {
  if (error instanceof MessageError) return t(error.key, error.vars);
  if (error instanceof GatehouseKnownError) {
    const d = error.details;
    switch (error.code) {
      case 'PASSWORD_TOO_SHORT':
        return t('error.PASSWORD_TOO_SHORT', { min: String(d.min_length ?? 8) });
      case 'PASSWORD_TOO_LONG':
        return t('error.PASSWORD_TOO_LONG', { max: String(d.maxLength ?? d.max_length ?? 70) });
      // core/auth-password/rules.ts names the rule in `reason`; the server's English `message` is not shown.
      case 'PASSWORD_REQUIREMENTS_NOT_MET':
        return t(
          d.reason === 'common_password'
            ? 'error.passwordCommon'
            : d.reason === 'predictable_password'
              ? 'error.passwordPredictable'
              : d.reason === 'matches_email'
                ? 'error.passwordMatchesEmail'
                : 'error.passwordRequirements',
        );
      default: {
        const key = `error.${error.code}` as MessageKey;
        return key in KNOWN_ERROR_KEYS ? t(key) : error.message;
      }
    }
  }
  if (error instanceof GatehouseNetworkError)
    return (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false ? t('error.offline') : t('error.network');
  if (error instanceof GatehouseStatusError)
    return error.status >= 500 ? t('error.server') : error.status === 429 ? t('error.RATE_LIMITED') : t('error.request');
  if (error instanceof Error && /webauthn/i.test(error.message)) return t('error.webauthn');
  return t('error.unknown');
}

/** The error codes with a message of their own (the catalogue's `error.<CODE>` keys). */
const KNOWN_ERROR_KEYS: Record<string, true> = Object.fromEntries(
  [
    'EMAIL_PASSWORD_MISMATCH',
    'USER_EMAIL_ALREADY_EXISTS',
    'PASSWORD_CONFIRMATION_MISMATCH',
    'VERIFICATION_CODE_NOT_FOUND',
    'VERIFICATION_CODE_EXPIRED',
    'VERIFICATION_CODE_ALREADY_USED',
    'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED',
    'EMAIL_ALREADY_VERIFIED',
    'SIGN_UP_NOT_ENABLED',
    'INVALID_TOTP_CODE',
    'OUTER_OAUTH_TIMEOUT',
    'OAUTH_PROVIDER_ACCESS_DENIED',
    'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED',
    'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE',
    'TEAM_INVITATION_NOT_FOUND',
    'RATE_LIMITED',
    'NOT_FOUND',
  ].map((c) => [`error.${c}`, true]),
);

/** Whether the catalogue has a fixed message for `code` (the error page shows only those). */
export function isKnownErrorCode(code: string): boolean {
  return `error.${code}` in KNOWN_ERROR_KEYS;
}

/** Client-side email check: the server's own rule (core/validation.ts, upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts). */
export function emailProblem(email: string): MessageKey | null {
  const value = email.trim();
  if (!value) return 'validate.emailMissing';
  if (value.length > 256) return 'validate.emailTooLong';
  if (!isValidEmail(value)) return 'validate.emailInvalid';
  return null;
}

/** Password length limits shown before the first attempt: the server's (core/lib/password-limits.ts). */
export const PASSWORD_RULES = { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH } as const;

/** Client-side new-password check (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts): present, within PASSWORD_RULES. */
export function passwordProblem(password: string): MessageError | null {
  if (!password) return new MessageError('validate.passwordMissing');
  if (password.length < PASSWORD_RULES.min) return new MessageError('error.PASSWORD_TOO_SHORT', { min: PASSWORD_RULES.min });
  if (password.length > PASSWORD_RULES.max) return new MessageError('error.PASSWORD_TOO_LONG', { max: PASSWORD_RULES.max });
  return null;
}

/**
 * A labelled input with its hint and error, linked by `aria-describedby`; `aria-invalid` while
 * the error shows. The error is not an alert of its own: the form moves focus to the first
 * invalid field, which reads it out. Password fields get a show-password toggle.
 */
export function Field(props: {
  label: string;
  type?: string;
  value: string;
  onChange: (v: string) => void;
  error?: string | null;
  autoComplete?: string;
  autoFocus?: boolean;
  name?: string;
  inputMode?: 'text' | 'numeric' | 'email';
  hint?: string;
}) {
  const id = useId();
  const t = useT();
  const [shown, setShown] = useState(false);
  const password = props.type === 'password';
  const described = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const input = (
    <input
      id={id}
      name={props.name}
      className="gh-input"
      type={password && shown ? 'text' : (props.type ?? 'text')}
      value={props.value}
      autoComplete={props.autoComplete}
      autoFocus={props.autoFocus}
      inputMode={props.inputMode}
      autoCapitalize={password || props.type === 'email' ? 'none' : undefined}
      spellCheck={password || props.type === 'email' ? false : undefined}
      aria-invalid={props.error ? true : undefined}
      aria-describedby={described}
      onInput={(e) => props.onChange((e.target as HTMLInputElement).value)}
      onChange={(e) => props.onChange((e.target as HTMLInputElement).value)}
    />
  );
  return (
    <div className="gh-field">
      <label htmlFor={id}>{props.label}</label>
      {password ? (
        <div className="gh-password">
          {input}
          <button type="button" className="gh-btn gh-reveal" aria-pressed={shown} aria-controls={id} onClick={() => setShown(!shown)}>
            {t('common.showPassword')}
          </button>
        </div>
      ) : (
        input
      )}
      {props.hint ? (
        <span id={`${id}-hint`} className="gh-muted gh-hint">
          {props.hint}
        </span>
      ) : null}
      {props.error ? (
        <span id={`${id}-error`} className="gh-error">
          {props.error}
        </span>
      ) : null}
    </div>
  );
}

/**
 * Focus after a failed submit: `focusFirstInvalid()` (call it after setting the field errors)
 * moves focus to the form's first field with `aria-invalid`, once the errors have rendered.
 */
export function useInvalidFocus() {
  const form = useRef<HTMLFormElement>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (tick === 0) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid=true]')?.focus();
  }, [tick]);
  return { form, focusFirstInvalid: () => setTick((n) => n + 1) };
}

/** A form-level error message: the one alert of the form. */
export function FormError(props: { error: unknown }) {
  const t = useT();
  if (props.error === null || props.error === undefined) return null;
  return (
    <p className="gh-error" role="alert">
      {errorText(props.error, t)}
    </p>
  );
}

/** A success message. */
export function Success(props: { children?: ReactNode }) {
  return (
    <p className="gh-success" role="status">
      {props.children}
    </p>
  );
}

/**
 * A list loaded for the component (`load` runs again when `deps` change or `reload()` is called);
 * null until the first answer, `[]` when loading fails. An answer arriving after unmount or after
 * a newer load is dropped (StrictMode's double effect included).
 */
export function useLoadedList<T>(load: () => Promise<T[]>, deps: readonly unknown[]): [T[] | null, () => void] {
  const [items, setItems] = useState<T[] | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (list) => {
        if (live) setItems(list);
      },
      () => {
        if (live) setItems([]);
      },
    );
    return () => {
      live = false;
    };
    // `deps` name what `load` reads (the caller passes them, as useEffect would).
  }, [...deps, version]);
  return [items, () => setVersion((v) => v + 1)];
}

/** Runs async actions with a busy flag and a caught error. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const mounted = useRef(true);
  // Set on every mount: StrictMode (and a reused Activity) unmounts and remounts effects on the
  // same instance, so a cleanup-only effect would leave the flag false and the button busy forever.
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
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

/**
 * A secret or id shown once, wrapping anywhere (a long key never widens the page), with a Copy
 * button that says "Copied" once the clipboard took it. `label` names it for screen readers.
 */
export function SecretValue(props: { value: string; label: string }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  return (
    <div className="gh-secret-row">
      <code className="gh-secret" aria-label={props.label}>
        {props.value}
      </code>
      <button
        type="button"
        className="gh-btn"
        aria-label={t('common.copyNamed', { name: props.label })}
        onClick={async () => {
          await (globalThis as { navigator?: { clipboard?: { writeText(s: string): Promise<void> } } }).navigator?.clipboard?.writeText(
            props.value,
          );
          setCopied(true);
        }}
      >
        {copied ? t('common.copied') : t('common.copy')}
      </button>
    </div>
  );
}

/** A submit button that shows progress. */
export function Submit(props: { busy: boolean; children?: ReactNode; busyLabel?: string }) {
  const t = useT();
  return (
    <button type="submit" className="gh-btn gh-primary" disabled={props.busy} aria-busy={props.busy}>
      {props.busy ? (props.busyLabel ?? t('common.pleaseWait')) : props.children}
    </button>
  );
}

function RetryFallback(props: { error: unknown; reset: () => void }) {
  const t = useT();
  return (
    <div>
      <FormError error={props.error} />
      <button type="button" className="gh-btn" onClick={props.reset}>
        {t('common.tryAgain')}
      </button>
    </div>
  );
}

/** Catches render errors (a failed load) and shows them with a retry. */
export class ErrorBoundary extends Component<
  { children?: ReactNode; fallback?: (error: unknown, reset: () => void) => ReactNode },
  { error: unknown }
> {
  override state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    if (this.state.error !== null) {
      const reset = () => this.setState({ error: null });
      return this.props.fallback ? this.props.fallback(this.state.error, reset) : <RetryFallback error={this.state.error} reset={reset} />;
    }
    return this.props.children;
  }
}

/** Suspense plus an error boundary: loading → content, or the error. */
export function Loader(props: { children?: ReactNode; label?: string }) {
  return (
    <ErrorBoundary>
      <Suspense fallback={<Spinner label={props.label} />}>{props.children}</Suspense>
    </ErrorBoundary>
  );
}

function Brand(props: { name: string; logo?: string | null }) {
  const t = useT();
  return (
    <div className="gh-brand">
      {props.logo ? <img src={props.logo} alt={t('common.logo', { name: props.name })} /> : null}
      <span>{props.name}</span>
    </div>
  );
}

function ProjectBrand() {
  return <Brand name={useProject().display_name} />;
}

function BrandInner() {
  const fromServer = useContext(BrandingContext);
  return fromServer?.displayName ? <Brand name={fromServer.displayName} logo={fromServer.logoUrl} /> : <ProjectBrand />;
}

/** The terms / privacy line under sign-in and sign-up forms, when the project set the links. */
export function LegalLinks() {
  const branding = useContext(BrandingContext);
  const t = useT();
  const terms = branding?.termsUrl ? (
    <a href={branding.termsUrl} target="_blank" rel="noopener noreferrer">
      {t('common.terms')}
    </a>
  ) : null;
  const privacy = branding?.privacyUrl ? (
    <a href={branding.privacyUrl} target="_blank" rel="noopener noreferrer">
      {t('common.privacy')}
    </a>
  ) : null;
  if (!terms && !privacy) return null;
  const key: MessageKey = terms && privacy ? 'common.legal' : terms ? 'common.legalTerms' : 'common.legalPrivacy';
  return (
    <p className="gh-muted gh-legal" data-testid="legal-links">
      {t.rich(key, { terms, privacy })}
    </p>
  );
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
      <ErrorBoundary fallback={() => null}>
        <Suspense fallback={<div className="gh-brand" />}>
          <BrandInner />
        </Suspense>
      </ErrorBoundary>
      <h1 id="gh-title" ref={heading} tabIndex={-1}>
        {props.title}
      </h1>
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
