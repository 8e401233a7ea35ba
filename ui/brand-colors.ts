/**
 * A project's accent colours (set in the dashboard, stored in its config as `branding`):
 * contrast checks (WCAG 2.2 relative luminance) and the CSS that applies them to the hosted pages
 * and components in light and dark mode, with a text colour on the accent chosen for contrast.
 */

/** A `#rrggbb` colour, or null. */
export function parseHex(color: string | null | undefined): [number, number, number] | null {
  const m = /^#([0-9a-f]{6})$/i.exec(color ?? '');
  if (!m) return null;
  const n = parseInt(m[1]!, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function luminance([r, g, b]: [number, number, number]): number {
  const c = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b);
}

/** The WCAG contrast ratio of two `#rrggbb` colours (1 to 21), or 0 when one is not a colour. */
export function contrastRatio(a: string, b: string): number {
  const x = parseHex(a);
  const y = parseHex(b);
  if (!x || !y) return 0;
  const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Card backgrounds of the hosted pages (ui/styles.ts): an accent is used as link text on them. */
export const CARD_BACKGROUND = { light: '#ffffff', dark: '#181b21' } as const;

/** Text on an accent-coloured button: white or near-black, whichever contrasts more. */
export function textOn(accent: string): string {
  return contrastRatio(accent, '#ffffff') >= contrastRatio(accent, '#0b0d12') ? '#ffffff' : '#0b0d12';
}

/**
 * Why an accent cannot be used in `mode` (links on the card and button text need 4.5:1), or null.
 */
export function accentProblem(accent: string, mode: 'light' | 'dark'): string | null {
  if (!parseHex(accent)) return 'Use a colour in the form #rrggbb.';
  const ratio = contrastRatio(accent, CARD_BACKGROUND[mode]);
  if (ratio < 4.5) return `Contrast against the ${mode} page is ${ratio.toFixed(1)}:1; links need at least 4.5:1.`;
  if (contrastRatio(accent, textOn(accent)) < 4.5) return 'No text colour reaches 4.5:1 on this accent.';
  return null;
}

/** CSS setting the accent variables of `.gh-root` for light and dark mode (only valid colours). */
export function accentCss(light: string | null | undefined, dark: string | null | undefined): string {
  const rule = (accent: string) => `--gh-accent:${accent};--gh-accent-fg:${textOn(accent)}`;
  let css = '';
  if (light && parseHex(light))
    css += `@media (prefers-color-scheme:light){.gh-root:not([data-theme=dark]){${rule(light)}}}.gh-root[data-theme=light]{${rule(light)}}`;
  if (dark && parseHex(dark))
    css += `@media (prefers-color-scheme:dark){.gh-root:not([data-theme=light]){${rule(dark)}}}.gh-root[data-theme=dark]{${rule(dark)}}`;
  return css;
}
