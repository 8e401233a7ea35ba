import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';

interface Toast {
  id: number;
  text: string;
  tone: 'ok' | 'error';
}

type Show = (text: string, tone?: 'ok' | 'error') => void;

const ToastContext = createContext<Show>(() => {});

/**
 * Holds the toasts: results of actions ("Key created", "Saved") shown at the bottom corner for
 * five seconds in a polite live region (`role="status"`), so screen readers announce them without
 * moving focus. The region is always in the page, so the first toast is announced too.
 */
export function ToastProvider(props: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(0);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  const show = useCallback<Show>((text, tone = 'ok') => {
    const id = ++next.current;
    setToasts((t) => [...t.slice(-2), { id, text, tone }]);
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      setToasts((t) => t.filter((x) => x.id !== id));
    }, 5000);
    timers.current.add(timer);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      {props.children}
      <div className="d-toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={t.tone === 'error' ? 'd-toast d-toast-error' : 'd-toast'}>
            {t.text}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** Shows a toast (a no-op outside `<ToastProvider>`). */
export function useToast(): Show {
  return useContext(ToastContext);
}
