/**
 * Localization of the hosted pages and components: message catalogues (English and German), a
 * locale context, and `useT()` to read messages. Apps choose the language with the `locale` prop
 * of any page component or of `<LocaleProvider>`; the hosted pages take it from `?lang=` (kept
 * for the visit), else from the browser's languages.
 */
import { createContext, Fragment, useContext, useMemo, type ReactNode } from 'react';
import { en, type MessageKey, type Messages } from './en.ts';
import { de } from './de.ts';

export type { MessageKey, Messages } from './en.ts';

/** The languages with a catalogue. */
export const CATALOGUES = { en, de } as const satisfies Record<string, Messages>;
export type Locale = keyof typeof CATALOGUES;
export const LOCALES = Object.keys(CATALOGUES) as Locale[];

/**
 * The supported locale for a BCP 47 tag or a list of them in preference order
 * (`de-AT` → `de`), falling back to English.
 */
export function resolveLocale(wanted: string | readonly string[] | null | undefined): Locale {
  for (const tag of typeof wanted === 'string' ? [wanted] : (wanted ?? [])) {
    const base = tag.toLowerCase().split(/[-_]/)[0] as Locale;
    if (LOCALES.includes(base)) return base;
  }
  return 'en';
}

/** Values for a message's `{name}` placeholders. */
export type MessageVars = Record<string, string | number>;

/** Reads messages of one locale: `t(key, vars)` for text, `t.rich(key, parts)` when a part is an element (a link). */
export interface Translate {
  (key: MessageKey, vars?: MessageVars): string;
  rich(key: MessageKey, parts: Record<string, ReactNode>): ReactNode;
  locale: Locale;
}

interface LocaleValue {
  locale: Locale;
  messages: Messages;
}
const LocaleContext = createContext<LocaleValue>({ locale: 'en', messages: en });

/** A translator for `locale`, with `overrides` replacing single messages (an app's own wording). */
export function translator(locale: Locale, overrides?: Partial<Messages>): Translate {
  const messages: Messages = overrides ? { ...CATALOGUES[locale], ...overrides } : CATALOGUES[locale];
  return makeTranslate({ locale, messages });
}

function makeTranslate(value: LocaleValue): Translate {
  const t = ((key: MessageKey, vars?: MessageVars) => {
    const template = value.messages[key] ?? en[key] ?? key;
    return vars ? template.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : template;
  }) as Translate;
  t.rich = (key, parts) =>
    value.messages[key].split(/(\{\w+\})/).map((piece, i) => {
      const m = /^\{(\w+)\}$/.exec(piece);
      return <Fragment key={i}>{m && m[1]! in parts ? parts[m[1]!] : piece}</Fragment>;
    });
  t.locale = value.locale;
  return t;
}

/**
 * Sets the language (and optionally single messages) for every component inside. Without it,
 * components speak English.
 */
export function LocaleProvider(props: { locale?: string | null; messages?: Partial<Messages>; children?: ReactNode }) {
  const outer = useContext(LocaleContext);
  const value = useMemo<LocaleValue>(() => {
    const locale = props.locale ? resolveLocale(props.locale) : outer.locale;
    return { locale, messages: { ...CATALOGUES[locale], ...props.messages } };
  }, [props.locale, props.messages, outer.locale]);
  return <LocaleContext.Provider value={value}>{props.children}</LocaleContext.Provider>;
}

/** The translator of the nearest `LocaleProvider` (English outside one). */
export function useT(): Translate {
  const value = useContext(LocaleContext);
  return useMemo(() => makeTranslate(value), [value]);
}
