import { createElement, type ReactNode } from 'react';
import * as ReactEmail from '@react-email/components';
import { render } from '@react-email/render';

/**
 * The data tree an email's TSX becomes inside the sandbox (sandbox-prelude.ts `__serialize`): text,
 * lists, host elements `{tag, props, children}` and `@react-email/components` elements
 * `{re, props, children}`. Prop values may hold `{__node}` (an element) and `{__re}` (a module
 * export such as a code-block theme or `pixelBasedPreset`).
 */
export type EmailNode =
  | string
  | number
  | null
  | EmailNode[]
  | { tag: string; props: Record<string, unknown>; children: EmailNode }
  | { re: string; props: Record<string, unknown>; children: EmailNode };

const exports = ReactEmail as unknown as Record<string, unknown>;

function exported(name: string): unknown {
  if (!Object.hasOwn(exports, name) || name === 'render') {
    throw new Error(`No matching export in "@react-email/components" for import "${name}"`);
  }
  return exports[name];
}

function propValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(propValue);
  const record = value as Record<string, unknown>;
  if ('__node' in record) return toReact(record.__node as EmailNode);
  if ('__re' in record) return exported(String(record.__re));
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, propValue(v)]));
}

/** Children as React's varargs (no list keys needed), nested lists flattened. */
function childList(children: EmailNode): ReactNode[] {
  if (children === null) return [];
  if (Array.isArray(children)) return children.flatMap(childList);
  return [toReact(children)];
}

function toReact(node: EmailNode): ReactNode {
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return childList(node);
  const props = Object.fromEntries(Object.entries(node.props).map(([k, v]) => [k, propValue(v)]));
  const type = 're' in node ? exported(node.re) : node.tag;
  if (typeof type !== 'string' && typeof type !== 'function' && typeof type !== 'object') {
    throw new Error(`"${(node as { re: string }).re}" from @react-email/components is not a component`);
  }
  return createElement(type as string, props, ...childList(node.children));
}

/**
 * Renders the tree with react-email's `render` (the real `@react-email/components`, in the render
 * worker, outside the sandbox): the XHTML 1.0 Transitional document react-email produces.
 */
export async function renderEmailTree(tree: EmailNode): Promise<string> {
  return render(toReact(tree) as Parameters<typeof render>[0]);
}

/** Loads react-email and Tailwind once (the first Tailwind render takes about a second). */
export async function warmUpReactEmail(): Promise<void> {
  await renderEmailTree({ re: 'Tailwind', props: {}, children: { tag: 'p', props: { className: 'p-4' }, children: 'warm' } });
}
