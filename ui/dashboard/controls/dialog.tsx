import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { X } from 'lucide';
import { Icon } from '../../icon.tsx';

const FOCUSABLE =
  'a[href],button:not([disabled]),input:not([disabled]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog (WAI-ARIA APG dialog pattern) for "create" and "edit": `role="dialog"`,
 * `aria-modal`, named by its title. Focus moves into it on open (the first field, else the close
 * button), Tab and Shift+Tab stay inside, Escape or a click on the backdrop closes it, and focus
 * returns to what had it before (the button that opened it).
 */
export function Dialog(props: { title: string; open: boolean; onClose: () => void; children: ReactNode; description?: ReactNode }) {
  const id = useId();
  const panel = useRef<HTMLDivElement>(null);
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;
  useEffect(() => {
    if (!props.open) return;
    const before = document.activeElement as HTMLElement | null;
    const node = panel.current;
    const first = node?.querySelector<HTMLElement>('input,select,textarea') ?? node?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        onClose.current();
        return;
      }
      if (e.key !== 'Tab' || !node) return;
      const items = Array.from(node.querySelectorAll<HTMLElement>(FOCUSABLE));
      if (items.length === 0) return;
      const a = items[0]!;
      const z = items[items.length - 1]!;
      if (e.shiftKey && (document.activeElement === a || !node.contains(document.activeElement))) {
        e.preventDefault();
        z.focus();
      } else if (!e.shiftKey && (document.activeElement === z || !node.contains(document.activeElement))) {
        e.preventDefault();
        a.focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      if (before && document.contains(before)) before.focus();
    };
  }, [props.open]);
  if (!props.open) return null;
  return (
    <div
      className="d-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) props.onClose();
      }}
    >
      <div ref={panel} className="d-dialog" role="dialog" aria-modal="true" aria-labelledby={`${id}-t`}>
        <header className="d-card-head">
          <h2 id={`${id}-t`}>{props.title}</h2>
          <button type="button" className="d-btn d-icon-btn" aria-label="Close" onClick={props.onClose}>
            <Icon icon={X} />
          </button>
        </header>
        {props.description && <p className="d-muted">{props.description}</p>}
        {props.children}
      </div>
    </div>
  );
}

/**
 * A button that opens a `Dialog` holding a "create" or "edit" form; `children` gets `close`
 * (call it from the form's `onDone`). Focus returns to the button when the dialog closes.
 */
export function DialogButton(props: {
  label: string;
  title: string;
  icon?: ReactNode;
  primary?: boolean;
  description?: ReactNode;
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  return (
    <>
      <button
        type="button"
        className={props.primary === false ? 'd-btn' : 'd-btn d-primary'}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {props.icon}
        {props.label}
      </button>
      <Dialog title={props.title} open={open} onClose={close} description={props.description}>
        {props.children(close)}
      </Dialog>
    </>
  );
}
