import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useApp } from '../../sdk/react.tsx';
import { GatehouseKnownError, type Result } from '../../sdk/errors.ts';
import type { BotChallenge } from '../../sdk/client-app.ts';
import { useT } from '../i18n/index.tsx';

/**
 * Cloudflare Turnstile in the sign-in forms (upstream
 * https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/utils/turnstile-flow.ts). Nothing here runs, and Cloudflare's script
 * is never fetched, unless the project has a site key (`bot_challenge_site_key`).
 */

/** Cloudflare's documented script, with explicit rendering (developers.cloudflare.com/turnstile/get-started/client-side-rendering/). */
export const TURNSTILE_SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

/** The Turnstile `action` of each flow (core/bot-challenge `TURNSTILE_ACTIONS`). */
export type TurnstileAction = 'sign_up_with_credential' | 'sign_in_with_credential' | 'send_magic_link_email' | 'oauth_authenticate';

/** The part of `window.turnstile` these forms use (Cloudflare's client-side API). */
export interface TurnstileApi {
  render(container: HTMLElement, options: Record<string, unknown>): string;
  execute?(widgetId: string): void;
  remove(widgetId: string): void;
}

const SCRIPT_TIMEOUT_MS = 30_000;
const INVISIBLE_TIMEOUT_MS = 30_000;

function currentApi(): TurnstileApi | null {
  const api = (globalThis as { window?: { turnstile?: unknown } }).window?.turnstile;
  return typeof api === 'object' && api !== null && 'render' in api && 'remove' in api ? (api as TurnstileApi) : null;
}

let loading: Promise<TurnstileApi> | null = null;

/**
 * Cloudflare's Turnstile API, loading its script once (a failed load may be retried later).
 * Rejects when the script cannot be loaded within 30 s (blocked, offline).
 */
export function loadTurnstile(): Promise<TurnstileApi> {
  const ready = currentApi();
  if (ready) return Promise.resolve(ready);
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    const script = document.createElement('script');
    const fail = (message: string) => {
      clearTimeout(timer);
      loading = null;
      script.remove();
      reject(new Error(message));
    };
    const timer = setTimeout(() => fail('Turnstile did not load in time'), SCRIPT_TIMEOUT_MS);
    script.src = TURNSTILE_SCRIPT_URL;
    script.async = true;
    script.onload = () => {
      const api = currentApi();
      if (api) {
        clearTimeout(timer);
        resolve(api);
      } else fail('Turnstile loaded without its API');
    };
    script.onerror = () => fail('Turnstile could not be loaded');
    document.head.appendChild(script);
  });
  return loading;
}

/** A token from an invisible run (`execution: execute`, shown only if Cloudflare needs interaction, which counts as failure). */
async function invisibleToken(siteKey: string, action: TurnstileAction): Promise<string> {
  const api = await loadTurnstile();
  const box = document.createElement('div');
  Object.assign(box.style, { position: 'fixed', left: '-9999px', top: '-9999px' });
  document.body.appendChild(box);
  let id: string | null = null;
  try {
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out')), INVISIBLE_TIMEOUT_MS);
      const settle = (fn: () => void) => {
        clearTimeout(timer);
        fn();
      };
      id = api.render(box, {
        sitekey: siteKey,
        action,
        execution: 'execute',
        appearance: 'interaction-only',
        callback: (token: string) => settle(() => resolve(token)),
        'error-callback': () => settle(() => reject(new Error('failed'))),
        'before-interactive-callback': () => settle(() => reject(new Error('needs interaction'))),
        'expired-callback': () => settle(() => reject(new Error('expired'))),
        'timeout-callback': () => settle(() => reject(new Error('timed out'))),
      });
      api.execute?.(id);
    });
  } finally {
    if (id !== null) {
      try {
        api.remove(id);
      } catch {
        /* already gone */
      }
    }
    box.remove();
  }
}

/**
 * The visible Turnstile widget (`appearance: always`), rendered into its own box and removed on
 * unmount (so StrictMode's second mount renders exactly one). Calls `onToken` once solved.
 */
export function TurnstileWidget(props: { siteKey: string; action: TurnstileAction; onToken: (token: string) => void }) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const onToken = useRef(props.onToken);
  onToken.current = props.onToken;
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    let rendered: { api: TurnstileApi; id: string } | null = null;
    loadTurnstile().then(
      (api) => {
        if (cancelled || !box.current) return;
        rendered = {
          api,
          id: api.render(box.current, {
            sitekey: props.siteKey,
            action: props.action,
            appearance: 'always',
            execution: 'render',
            callback: (token: string) => {
              setProblem(null);
              onToken.current(token);
            },
            'error-callback': () => setProblem(t('botChallenge.failed')),
            'expired-callback': () => setProblem(t('botChallenge.expired')),
          }),
        };
      },
      () => {
        if (!cancelled) setProblem(t('botChallenge.unavailable'));
      },
    );
    return () => {
      cancelled = true;
      if (rendered) {
        try {
          rendered.api.remove(rendered.id);
        } catch {
          /* already gone */
        }
      }
    };
  }, [props.siteKey, props.action]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div className="gh-turnstile" data-testid="turnstile-widget">
      <p>{t('botChallenge.prompt')}</p>
      <div ref={box} />
      {problem ? (
        <p className="gh-error" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Runs a form's call through upstream's challenge flow when the project has a Turnstile site key:
 * an invisible token first (`phase: invisible`); when the server answers BOT_CHALLENGE_REQUIRED,
 * or the invisible run needs interaction, the visible widget appears in the form (`element`) and
 * the call is repeated with its token (`phase: visible`); when Cloudflare's script cannot load,
 * the call says so (`unavailable`). Without a site key the call runs as is. The script is loaded
 * ahead on mount, only with a site key.
 */
export function useBotChallenge(action: TurnstileAction): {
  run<T>(execute: (challenge?: BotChallenge) => Promise<Result<T>>): Promise<Result<T>>;
  element: ReactNode;
} {
  const app = useApp();
  // Read without suspending: a form whose project cannot be read still works (without a challenge).
  const projectSiteKey = () =>
    app.getProject().then(
      (p) => p.config.bot_challenge_site_key ?? null,
      () => null,
    );
  const [siteKey, setSiteKey] = useState<string | null>(null);
  const [visible, setVisible] = useState(false);
  const waiting = useRef<((token: string) => void) | null>(null);
  useEffect(() => {
    let live = true;
    void projectSiteKey().then((key) => {
      if (!live || !key) return;
      setSiteKey(key);
      loadTurnstile().catch(() => {
        /* reported when used */
      });
    });
    return () => {
      live = false;
    };
  }, [app]); // eslint-disable-line react-hooks/exhaustive-deps

  const visibleToken = () =>
    new Promise<string>((resolve) => {
      waiting.current = resolve;
      setVisible(true);
    });
  const solved = (token: string) => {
    setVisible(false);
    const resolve = waiting.current;
    waiting.current = null;
    resolve?.(token);
  };

  async function run<T>(execute: (challenge?: BotChallenge) => Promise<Result<T>>): Promise<Result<T>> {
    const siteKey = await projectSiteKey();
    if (!siteKey) return execute();
    setSiteKey(siteKey);
    let first: BotChallenge;
    try {
      first = { token: await invisibleToken(siteKey, action), phase: 'invisible' };
    } catch {
      if (!currentApi()) return execute({ unavailable: true });
      return execute({ token: await visibleToken(), phase: 'visible' });
    }
    const result = await execute(first);
    if (result.status === 'error' && result.error instanceof GatehouseKnownError && result.error.code === 'BOT_CHALLENGE_REQUIRED') {
      return execute({ token: await visibleToken(), phase: 'visible' });
    }
    return result;
  }

  return { run, element: visible && siteKey ? <TurnstileWidget siteKey={siteKey} action={action} onToken={solved} /> : null };
}
