import { useId, useState } from 'react';

/** One choice of a combobox: `value` is passed to `onPick`, `label` shown and announced. */
export interface ComboOption {
  value: string;
  label: string;
  hint?: string;
}

/**
 * A search box with a list of matches (WAI-ARIA APG combobox with a listbox popup): the owner
 * types, `onQuery` gets the text (the caller loads `options` for it), ArrowDown / ArrowUp move
 * through the matches, Enter or a click picks one (`onPick`), Escape closes the list. The text
 * clears after a pick.
 */
export function Combobox(props: {
  label: string;
  placeholder?: string;
  query: string;
  onQuery: (text: string) => void;
  options: ComboOption[];
  loading?: boolean;
  onPick: (value: string) => void;
  emptyText?: string;
}) {
  const id = useId();
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const showList = open && props.query.trim() !== '';
  const pick = (o: ComboOption | undefined) => {
    if (!o) return;
    props.onPick(o.value);
    props.onQuery('');
    setOpen(false);
    setActive(0);
  };
  const current = Math.min(active, Math.max(props.options.length - 1, 0));
  return (
    <div className="d-field d-combo">
      <label htmlFor={`${id}-in`}>{props.label}</label>
      <input
        id={`${id}-in`}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={`${id}-list`}
        aria-activedescendant={showList && props.options.length ? `${id}-o${current}` : undefined}
        placeholder={props.placeholder}
        value={props.query}
        onInput={(e) => {
          props.onQuery((e.target as HTMLInputElement).value);
          setOpen(true);
          setActive(0);
        }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
            setActive((current + 1) % Math.max(props.options.length, 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((current - 1 + props.options.length) % Math.max(props.options.length, 1));
          } else if (e.key === 'Enter' && showList) {
            e.preventDefault();
            pick(props.options[current]);
          } else if (e.key === 'Escape' && showList) {
            e.preventDefault();
            e.stopPropagation();
            setOpen(false);
          }
        }}
      />
      <ul
        id={`${id}-list`}
        role="listbox"
        aria-label={props.label}
        className="d-combo-list"
        hidden={!showList || props.options.length === 0}
      >
        {props.options.map((o, i) => (
          <li
            key={o.value}
            id={`${id}-o${i}`}
            role="option"
            aria-selected={i === current}
            onMouseDown={(e) => {
              e.preventDefault();
              pick(o);
            }}
          >
            {o.label}
            {o.hint ? <small className="d-muted"> {o.hint}</small> : null}
          </li>
        ))}
      </ul>
      {showList && props.options.length === 0 ? (
        <small className="d-muted" role="status">
          {props.loading ? 'Searching…' : (props.emptyText ?? 'No matches.')}
        </small>
      ) : null}
    </div>
  );
}
