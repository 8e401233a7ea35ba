/**
 * What a visitor does on the server-rendered sign-in or sign-up form before the page's script has
 * rendered it (ui/hosted/server-render.tsx): a small inline script in the page's head, which
 * listens before the markup is parsed, holds each submit and each click on a link or button, and the entry (./main.tsx) replays them on the
 * tree it renders in the markup's place, with the values typed meanwhile (as React's hydration
 * replays discrete events). The form is usable as soon as the HTML is parsed.
 */
import { EARLY_INPUT_GLOBAL } from './early-input-script.ts';

type Held = Array<['submit' | 'click', number]>;

type Field = HTMLInputElement | HTMLTextAreaElement;

/**
 * Takes the server's markup out of `root` before the page renders there: remembers the values
 * typed into its fields and which one has focus, and empties the root. Returns what to call after
 * the render: it types the values into the same fields of the new tree (an `input` event each, so
 * the components' state follows), gives focus back, then replays the held submits and clicks, one
 * task each, so each sees the state the previous one left. Null when the root holds no server markup.
 */
export function takeOverServerMarkup(root: HTMLElement): (() => void) | null {
  if (!root.hasAttribute('data-server-rendered')) return null;
  root.removeAttribute('data-server-rendered');
  const fields = (el: HTMLElement) => [...el.querySelectorAll<Field>('input,textarea')];
  const typed = fields(root).map((f) => ({ name: f.name, value: f.value, checked: 'checked' in f ? f.checked : false }));
  const active = document.activeElement;
  const focused = fields(root).findIndex((f) => f === active);
  const early = (window as unknown as Record<string, { held: Held; stop: () => void } | undefined>)[EARLY_INPUT_GLOBAL];
  early?.stop();
  const held = early?.held.slice() ?? [];
  root.textContent = '';
  return () => {
    fields(root).forEach((f, i) => {
      const before = typed[i];
      if (!before || before.name !== f.name) return;
      if (f instanceof HTMLInputElement && (f.type === 'checkbox' || f.type === 'radio')) {
        if (f.checked !== before.checked) f.click();
      } else if (f.value !== before.value) {
        f.value = before.value;
        f.dispatchEvent(new Event('input', { bubbles: true }));
      }
    });
    if (focused >= 0) fields(root)[focused]?.focus();
    const replay = (rest: Held) => {
      const [next, ...later] = rest;
      if (!next) return;
      setTimeout(() => {
        const [kind, index] = next;
        if (kind === 'submit') root.querySelectorAll('form')[index]?.requestSubmit();
        else root.querySelectorAll<HTMLElement>('a,button')[index]?.click();
        replay(later);
      });
    };
    replay(held);
  };
}
