import { useId, useState } from 'react';

/**
 * An on/off setting: a `<button role="switch" aria-checked>` drawn as a track and thumb, named by
 * its visible label (WAI-ARIA APG switch pattern; Space and Enter toggle it). When `onChange`
 * returns a promise (a save), the switch shows the new state until it settles, then follows
 * `checked` again (so a refused change flips back).
 */
export function Switch(props: { label: string; checked: boolean; onChange: (v: boolean) => unknown; disabled?: boolean; hint?: string }) {
  const [optimistic, setOptimistic] = useState<boolean | null>(null);
  const id = useId();
  const on = optimistic ?? props.checked;
  const change = (value: boolean) => {
    const result = props.onChange(value);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      setOptimistic(value);
      (result as Promise<unknown>).then(
        () => setOptimistic(null),
        () => setOptimistic(null),
      );
    }
  };
  return (
    <div className="d-toggle">
      <button
        type="button"
        role="switch"
        id={`${id}-s`}
        className="d-switch"
        aria-checked={on}
        aria-labelledby={`${id}-l`}
        aria-describedby={props.hint ? `${id}-h` : undefined}
        disabled={props.disabled}
        onClick={() => change(!on)}
      >
        <span className="d-switch-thumb" aria-hidden="true" />
      </button>
      <span>
        <label id={`${id}-l`} htmlFor={`${id}-s`}>
          {props.label}
        </label>
        {props.hint && (
          <small className="d-muted" id={`${id}-h`}>
            {' '}
            — {props.hint}
          </small>
        )}
      </span>
    </div>
  );
}
