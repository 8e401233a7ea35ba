import { createContext, useCallback, useContext, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Check, Copy } from 'lucide';
import { errorMessage, type DashboardApi } from './api.ts';
import { Icon } from '../icon.tsx';
import { Switch } from './controls/switch.tsx';
import { useToast } from './controls/toast.tsx';

/** The dashboard's API connection, provided once at the root. */
export const ApiContext = createContext<DashboardApi | null>(null);

/** The dashboard API (throws outside the provider). */
export function useApi(): DashboardApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside <ApiContext.Provider>');
  return api;
}

/** State of a load: loading, failed, or data. */
export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
}

/**
 * Runs `load` on mount and whenever `deps` change; `reload()` runs it again. Stale answers are
 * dropped. A failed `reload()` keeps the data already shown (with the error beside it), so a
 * background refresh never replaces a page being edited; new `deps` start empty.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: null,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  const lastTick = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    const isReload = tick !== lastTick.current;
    lastTick.current = tick;
    setState((s) => ({ data: s.data, error: null, loading: true }));
    load().then(
      (data) => {
        if (seq.current === mine) setState({ data, error: null, loading: false });
      },
      (error: unknown) => {
        if (seq.current === mine) setState((s) => ({ data: isReload ? s.data : undefined, error, loading: false }));
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

/** Busy flag and error of a user action; `run` returns true when the action succeeded. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (fn: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      return true;
    } catch (e) {
      setError(e);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

/**
 * The loading state: a label announced to screen readers (`role="status"`) above skeleton lines
 * in the shape of the content to come (`lines`, default 3), so the page does not jump.
 */
export function Loading(props: { label?: string; lines?: number }) {
  return (
    <div className="d-loading-wrap">
      <div className="d-loading" role="status" aria-live="polite">
        <span className="d-spinner" aria-hidden="true" />
        {props.label ?? 'Loading…'}
      </div>
      <div aria-hidden="true">
        {Array.from({ length: props.lines ?? 3 }, (_, i) => (
          <div key={i} className="d-skeleton" style={{ width: `${90 - i * 17}%` }} />
        ))}
      </div>
    </div>
  );
}

/** An error box (role=alert) with an optional retry button. */
export function ErrorBox(props: { error: unknown; retry?: () => void }) {
  if (!props.error) return null;
  return (
    <div className="d-error" role="alert">
      <span>{errorMessage(props.error)}</span>
      {props.retry && (
        <button type="button" className="d-link" onClick={props.retry}>
          Retry
        </button>
      )}
    </div>
  );
}

/**
 * A data table's frame: on a wide screen the table scrolls inside it if it must (WCAG 1.4.10)
 * while the page never scrolls sideways; under 640 px every `.d-table` becomes one card per row,
 * and this frame labels each cell with its column's header (`data-label`, kept up to date as rows
 * change). Focusable and named, so keyboard users can scroll it too.
 */
export function TableScroll(props: { label: string; children: ReactNode }) {
  const frame = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = frame.current;
    if (!node) return;
    const label = () => {
      for (const table of Array.from(node.querySelectorAll('table'))) {
        const heads = Array.from(table.querySelectorAll('thead th')).map((th) => th.textContent?.trim() ?? '');
        for (const row of Array.from(table.querySelectorAll('tbody tr'))) {
          Array.from(row.children).forEach((cell, i) => {
            if (cell.tagName === 'TD' && !cell.hasAttribute('data-label') && heads[i]) cell.setAttribute('data-label', heads[i]!);
          });
        }
      }
    };
    label();
    if (typeof MutationObserver === 'undefined') return;
    const observer = new MutationObserver(label);
    observer.observe(node, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={frame} className="d-scroll" role="region" aria-label={props.label} tabIndex={0}>
      {props.children}
    </div>
  );
}

/**
 * The empty state of a list: what is missing and, in `action` (a button or link), the next step.
 */
export function Empty(props: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="d-empty">
      <div>{props.children}</div>
      {props.action ? <div className="d-empty-action">{props.action}</div> : null}
    </div>
  );
}

/** Renders the three states of a load: loading, error (with retry), data. */
export function Async<T>(props: { state: Loaded<T>; label?: string; children: (data: T) => ReactNode }) {
  const { state } = props;
  if (state.error && state.data === undefined) return <ErrorBox error={state.error} retry={state.reload} />;
  if (state.data === undefined) return <Loading label={props.label} />;
  // A failed refresh shows its error above the data already on screen (and any edits in it).
  return (
    <>
      {state.error ? <ErrorBox error={state.error} retry={state.reload} /> : null}
      {props.children(state.data)}
    </>
  );
}

/**
 * A button that asks for confirmation inline before a destructive action. Keyboard: the confirm
 * button takes focus, Escape (or Cancel) goes back to the button, and after the action focus
 * stays on the button, or, when the action removed it, moves to its section's heading (never
 * to the page body).
 */
export function ConfirmButton(props: {
  label: string;
  confirmLabel?: string;
  question: string;
  onConfirm: () => Promise<unknown> | void;
  danger?: boolean;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const wrapper = useRef<HTMLSpanElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  const hasFocus = useRef(false);
  useEffect(() => {
    if (asking) confirm.current?.focus();
    else if (returnFocus.current) {
      returnFocus.current = false;
      trigger.current?.focus();
    }
  }, [asking]);
  // When the action removes this button while it has focus (a revoked key offers none), focus
  // moves to the heading of its section instead of falling back to the page body.
  useEffect(() => {
    const region = wrapper.current?.closest('section, main') ?? null;
    return () => {
      if (!hasFocus.current) return;
      setTimeout(() => {
        const active = document.activeElement;
        if (active && active !== document.body && document.contains(active)) return;
        const heading = region?.querySelector<HTMLElement>('h1, h2') ?? (region as HTMLElement | null);
        if (heading && document.contains(heading)) {
          if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
          heading.focus();
        }
      }, 0);
    };
  }, []);
  const cancel = () => {
    returnFocus.current = true;
    setAsking(false);
  };
  const run = async () => {
    setBusy(true);
    try {
      await props.onConfirm();
      returnFocus.current = true;
      setAsking(false);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span
      ref={wrapper}
      className="d-confirm-wrap"
      onFocus={() => {
        hasFocus.current = true;
      }}
      onBlur={(e) => {
        if (e.relatedTarget) hasFocus.current = false;
      }}
    >
      {!asking ? (
        <button
          ref={trigger}
          type="button"
          className={props.danger === false ? 'd-btn' : 'd-btn d-danger'}
          disabled={props.disabled}
          onClick={() => {
            setAsking(true);
            setError(null);
          }}
        >
          {props.label}
        </button>
      ) : (
        <span
          className="d-confirm"
          role="group"
          aria-label={props.question}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !busy) {
              e.preventDefault();
              cancel();
            }
          }}
        >
          <span>{props.question}</span>
          <button ref={confirm} type="button" className="d-btn d-danger" disabled={busy} onClick={run}>
            {busy ? 'Working…' : (props.confirmLabel ?? 'Yes, ' + props.label.toLowerCase())}
          </button>
          <button type="button" className="d-btn" disabled={busy} onClick={cancel}>
            Cancel
          </button>
          {error ? <ErrorBox error={error} /> : null}
        </span>
      )}
    </span>
  );
}

/** Copies `text` to the clipboard (with a fallback for non-secure contexts). */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    /* fall back below */
  }
  const area = document.createElement('textarea');
  area.value = text;
  document.body.appendChild(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

/** A "Copy" button (icon and word) that says "Copied" for a moment. */
export function CopyButton(props: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <button
      type="button"
      className="d-btn d-small d-copy"
      aria-label={props.label ? `Copy ${props.label}` : 'Copy'}
      onClick={async () => {
        await copyText(props.text);
        setCopied(true);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(false), 1500);
      }}
    >
      <Icon icon={copied ? Check : Copy} size={14} />
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

/**
 * A secret or id shown in monospace with a Copy button beside it (`label` names what is copied).
 */
export function CopyValue(props: { value: string; label: string; testId?: string }) {
  return (
    <span className="d-copy-value">
      <code className="d-secret" data-testid={props.testId}>
        {props.value}
      </code>
      <CopyButton text={props.value} label={props.label} />
    </span>
  );
}

/** A labelled text input with an error line (validation as you type is the caller's). */
export function Field(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  type?: string;
  error?: string | null;
  placeholder?: string;
  name?: string;
  autoComplete?: string;
  hint?: string;
  required?: boolean;
}) {
  const id = useRef(`f-${Math.random().toString(36).slice(2)}`).current;
  return (
    <div className="d-field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        placeholder={props.placeholder}
        autoComplete={props.autoComplete}
        required={props.required}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-err` : undefined}
        onInput={(e) => props.onChange((e.target as HTMLInputElement).value)}
        onChange={(e) => props.onChange((e.target as HTMLInputElement).value)}
      />
      {props.hint && !props.error && <small className="d-muted">{props.hint}</small>}
      {/* Always present, so a problem found as you type is announced (polite live region). */}
      <small id={`${id}-err`} className="d-field-error" aria-live="polite">
        {props.error ?? ''}
      </small>
    </div>
  );
}

/** An on/off setting (ui/dashboard/controls/switch.tsx): a `role="switch"` button with `aria-checked`. */
export const Toggle = Switch;

/**
 * A form with a submit button, busy state and error line. While `disabled`, the button stays
 * focusable (`aria-disabled`) and says why (`disabledReason`, or that the fields above need
 * completing), so keyboard and screen-reader users learn what to do.
 */
export function Form(props: {
  onSubmit: () => Promise<unknown>;
  submit: string;
  busyLabel?: string;
  children: ReactNode;
  label?: string;
  disabled?: boolean;
  disabledReason?: string;
  onDone?: () => void;
  /** Shown as a toast when the submit succeeds ("Key created"). */
  success?: string;
}) {
  const { busy, error, run } = useAction();
  const toast = useToast();
  const reasonId = useRef(`why-${Math.random().toString(36).slice(2)}`).current;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (props.disabled || busy) return;
    if (await run(props.onSubmit)) {
      if (props.success) toast(props.success);
      props.onDone?.();
    }
  };
  return (
    <form className="d-form" onSubmit={submit} aria-label={props.label} noValidate>
      {props.children}
      <ErrorBox error={error} />
      <div className="d-row">
        <button
          type="submit"
          className="d-btn d-primary"
          aria-disabled={busy || props.disabled ? true : undefined}
          aria-describedby={props.disabled ? reasonId : undefined}
        >
          {busy ? (props.busyLabel ?? 'Saving…') : props.submit}
        </button>
        {props.disabled ? (
          <small id={reasonId} className="d-muted">
            {props.disabledReason ?? 'Complete the fields above first.'}
          </small>
        ) : null}
      </div>
    </form>
  );
}

/** A titled card. */
export function Section(props: { title: string; children: ReactNode; actions?: ReactNode; description?: ReactNode }) {
  return (
    <section className="d-card" aria-label={props.title}>
      <header className="d-card-head">
        <h2>{props.title}</h2>
        {props.actions}
      </header>
      {props.description && <p className="d-muted">{props.description}</p>}
      {props.children}
    </section>
  );
}

/** Formats epoch milliseconds for tables. */
export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16);
}
