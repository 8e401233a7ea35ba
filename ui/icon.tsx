import { createElement } from 'react';

/** A lucide icon node: `[tag, attributes]` pairs (the `lucide` package's named exports). */
export type IconNode = [tag: string, attrs: Record<string, string | number | undefined>][];

/**
 * Draws a lucide icon (https://lucide.dev, ISC) inline as SVG, in the current text colour. Import
 * the icon by name from `lucide` so only the icons used are bundled; nothing is fetched at run time.
 * Decorative (`aria-hidden`) unless `label` is given.
 */
export function Icon(props: { icon: IconNode; size?: number; label?: string; className?: string }) {
  const size = props.size ?? 16;
  return createElement(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      width: size,
      height: size,
      viewBox: '0 0 24 24',
      fill: 'none',
      stroke: 'currentColor',
      strokeWidth: 2,
      strokeLinecap: 'round',
      strokeLinejoin: 'round',
      className: props.className ?? 'gh-icon',
      focusable: 'false',
      'aria-hidden': props.label ? undefined : 'true',
      role: props.label ? 'img' : undefined,
      'aria-label': props.label,
    },
    ...props.icon.map(([tag, attrs], i) => createElement(tag, { key: i, ...attrs })),
  );
}
