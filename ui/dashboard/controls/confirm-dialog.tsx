import { useState, type ReactNode } from 'react';
import { ErrorBox, useAction } from '../kit.tsx';
import { Dialog } from './dialog.tsx';

/**
 * A button that asks in a dialog before a consequential action (delete a user, sign out every
 * session): the dialog says what will happen, and the confirm button stays unavailable until the
 * owner types `typeToConfirm` when one is given (deletes). The action's error shows inside the
 * dialog, which stays open; on success it closes and `onDone` runs.
 */
export function ConfirmDialogButton(props: {
  label: string;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  typeToConfirm?: string;
  danger?: boolean;
  icon?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const { busy, error, setError, run } = useAction();
  const ready = !props.typeToConfirm || typed.trim() === props.typeToConfirm;
  const close = () => {
    if (busy) return;
    setOpen(false);
    setTyped('');
    setError(null);
  };
  const danger = props.danger !== false;
  return (
    <>
      <button type="button" className={danger ? 'd-btn d-danger' : 'd-btn'} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {props.icon}
        {props.label}
      </button>
      <Dialog title={props.title} open={open} onClose={close}>
        <form
          className="d-form"
          noValidate
          onSubmit={async (e) => {
            e.preventDefault();
            if (!ready || busy) return;
            if (await run(props.onConfirm)) close();
          }}
        >
          <div>{props.children}</div>
          {props.typeToConfirm ? (
            <div className="d-field">
              <label htmlFor="confirm-typed">
                Type <code>{props.typeToConfirm}</code> to confirm
              </label>
              <input id="confirm-typed" autoComplete="off" value={typed} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} />
            </div>
          ) : null}
          <ErrorBox error={error} />
          <div className="d-row">
            <button
              type="submit"
              className={danger ? 'd-btn d-danger' : 'd-btn d-primary'}
              aria-disabled={!ready || busy ? true : undefined}
            >
              {busy ? 'Working…' : props.confirmLabel}
            </button>
            <button type="button" className="d-btn" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
