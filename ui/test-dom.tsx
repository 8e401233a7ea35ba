/**
 * Component-test support: a happy-dom window as the global DOM, React 19 roots
 * rendered inside `act`, and helpers to type, click and wait.
 */
import { Window } from 'happy-dom';
import { StrictMode, type ReactNode } from 'react';

const win = new Window({ url: 'http://localhost:3000/handler/sign-in' });
const g = globalThis as Record<string, unknown>;
for (const key of [
  'window',
  'document',
  'navigator',
  'Element',
  'HTMLElement',
  'HTMLInputElement',
  'HTMLButtonElement',
  'HTMLFormElement',
  'Node',
  'Event',
  'KeyboardEvent',
  'MouseEvent',
  'InputEvent',
  'location',
  'history',
  'sessionStorage',
  'getComputedStyle',
  'requestAnimationFrame',
  'cancelAnimationFrame',
]) {
  if (key === 'navigator') Object.defineProperty(globalThis, 'navigator', { value: win.navigator, configurable: true });
  else g[key] = (win as unknown as Record<string, unknown>)[key];
}
g.IS_REACT_ACT_ENVIRONMENT = true;

const { act } = await import('react');
const { createRoot } = await import('react-dom/client');

export { act };

/** Sets the page URL (path and query) the components read. */
export function setUrl(url: string): void {
  win.happyDOM.setURL(new URL(url, 'http://localhost:3000').toString());
}

/** Lets promises and React updates settle. */
export async function flush(times = 5): Promise<void> {
  for (let i = 0; i < times; i++)
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
}

/**
 * Renders into a fresh container under `<StrictMode>` (as Vite and Next.js apps do in
 * development: effects run, clean up and run again on the same instance); `strict: false` only
 * for a test that is about the non-strict path. Returns the container and an unmount function.
 */
export async function render(
  element: ReactNode,
  options: { strict?: boolean } = {},
): Promise<{ container: HTMLElement; unmount: () => Promise<void> }> {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root = createRoot(container);
  const tree = options.strict === false ? element : <StrictMode>{element}</StrictMode>;
  await act(async () => {
    root.render(tree);
  });
  await flush();
  return {
    container,
    unmount: async () => {
      await act(async () => root.unmount());
      container.remove();
    },
  };
}

/** The input labelled `label` inside `container`. */
export function input(container: HTMLElement, label: string): HTMLInputElement {
  const l = Array.from(container.querySelectorAll('label')).find((x) => x.textContent?.trim() === label);
  if (!l) throw new Error(`No label "${label}" in: ${container.textContent}`);
  const el = l.htmlFor ? container.querySelector(`[id="${l.htmlFor}"]`) : l.querySelector('input');
  if (!el) throw new Error(`Label "${label}" has no control`);
  return el as HTMLInputElement;
}

/** Types `value` into the input labelled `label`. */
export async function type(container: HTMLElement, label: string, value: string): Promise<void> {
  const el = input(container, label);
  await act(async () => {
    el.value = value;
    el.dispatchEvent(new (win.Event as unknown as typeof Event)('input', { bubbles: true }));
  });
}

/** The button whose text is `text`. */
export function button(container: HTMLElement, text: string | RegExp): HTMLButtonElement {
  const b = Array.from(container.querySelectorAll('button')).find((x) =>
    typeof text === 'string' ? x.textContent?.trim() === text : text.test(x.textContent ?? ''),
  );
  if (!b) throw new Error(`No button ${String(text)} in: ${container.textContent}`);
  return b as HTMLButtonElement;
}

/** Clicks the button with text `text` and lets the result settle. */
export async function click(container: HTMLElement, text: string | RegExp): Promise<void> {
  const b = button(container, text);
  await act(async () => {
    b.click();
  });
  await flush();
}

/**
 * Waits until `condition()` holds, letting React and timers run between checks, for at most
 * `timeoutMs` of wall time (a generous bound: a slow machine must not fail it); then checks once
 * more and throws `message()` if it still does not hold.
 */
export async function waitFor(condition: () => boolean, message: () => string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return;
    await act(async () => {
      await new Promise((r) => setTimeout(r, 5));
    });
  }
  if (!condition()) throw new Error(message());
}

/** Waits until `container`'s text includes `text` (see `waitFor`), else fails naming what the page says. */
export async function waitForText(container: HTMLElement, text: string, timeoutMs?: number): Promise<void> {
  await waitFor(
    () => container.textContent?.includes(text) ?? false,
    () => `Text "${text}" never appeared; page says: ${container.textContent}`,
    timeoutMs,
  );
}

/** Runs `fn` with `location.assign` recorded instead of navigating (`fn` sees the list as it fills, to wait on it); returns the assigned URLs. */
export async function captureAssign(fn: (assigned: readonly string[]) => Promise<void>): Promise<string[]> {
  const assigned: string[] = [];
  const loc = globalThis.location as unknown as { assign: (u: string) => void };
  const original = loc.assign;
  loc.assign = (u: string) => {
    assigned.push(u);
  };
  try {
    await fn(assigned);
  } finally {
    loc.assign = original;
  }
  return assigned;
}
