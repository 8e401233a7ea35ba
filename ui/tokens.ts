/**
 * Gatehouse's design tokens, shared by the hosted pages, the React components and the dashboard:
 * colour (light and dark), type scale, spacing, radius and the focus ring, as CSS custom
 * properties named `--gh-*`. Colours meet WCAG 2.2 AA: text ≥ 4.5:1 on `--gh-bg` and `--gh-card`,
 * `--gh-field` (control borders) ≥ 3:1. A plain string module: the server imports it without React.
 */

/** Light palette. */
const LIGHT =
  '--gh-bg:#f6f7f9;--gh-card:#fff;--gh-fg:#111827;--gh-muted:#5b6472;--gh-border:#d5d9e0;--gh-field:#8a919c;--gh-accent:#2454d6;--gh-accent-fg:#fff;--gh-accent-soft:#e8eefc;--gh-danger:#b42318;--gh-ok:#067647;--gh-skeleton:#e7e9ee;--gh-shadow:0 10px 30px rgba(17,24,39,.18)';
/** Dark palette. */
const DARK =
  '--gh-bg:#0f1115;--gh-card:#181b21;--gh-fg:#eef0f3;--gh-muted:#a3abb8;--gh-border:#333944;--gh-field:#737b88;--gh-accent:#7aa2ff;--gh-accent-fg:#0b0d12;--gh-accent-soft:#1d2740;--gh-danger:#ff8a80;--gh-ok:#5fd39a;--gh-skeleton:#262a33;--gh-shadow:0 10px 30px rgba(0,0,0,.6)';
/** Type scale (rem, 1.125 ratio), spacing (4 px grid), radius, focus ring. */
const SCALE =
  '--gh-text-xs:.75rem;--gh-text-sm:.875rem;--gh-text-md:1rem;--gh-text-lg:1.125rem;--gh-text-xl:1.4rem;--gh-text-2xl:2rem;' +
  '--gh-space-1:4px;--gh-space-2:8px;--gh-space-3:12px;--gh-space-4:16px;--gh-space-5:24px;--gh-space-6:32px;' +
  '--gh-radius-sm:6px;--gh-radius-md:8px;--gh-radius-lg:12px;--gh-radius-full:999px;' +
  '--gh-focus-width:3px;--gh-focus-offset:2px;' +
  '--gh-font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;--gh-mono:ui-monospace,SFMono-Regular,Menlo,monospace';

/**
 * The token declarations for `selector`: light by default, dark under `prefers-color-scheme: dark`
 * unless `[data-theme=light]`, and dark under `[data-theme=dark]`.
 */
export function tokensCss(selector: string): string {
  return (
    `${selector}{${LIGHT};${SCALE}}` +
    `@media (prefers-color-scheme:dark){${selector}:not([data-theme=light]){${DARK}}}` +
    `${selector}[data-theme=dark]{${DARK}}`
  );
}

/** The focus ring every focusable control shows (`:focus-visible`). */
export const FOCUS_RING = 'outline:var(--gh-focus-width) solid var(--gh-accent);outline-offset:var(--gh-focus-offset)';
