/**
 * Localization of the hosted pages and components: a locale context, and `useT()` to read
 * messages. Apps choose the language with the `locale` prop of any page component or of
 * `<LocaleProvider>`; the hosted pages take it from `?lang=` (kept for the visit), else from the
 * browser's languages.
 *
 * English is always here; the other catalogues are registered ({@link registerCatalogue}): by
 * ./catalogues.ts for the component library (every language at once), and on demand by the
 * hosted pages (./load.ts), whose first script then carries English only.
 */
import { createContext, Fragment, useContext, useMemo, type ReactNode } from 'react';
import { en, type MessageKey, type Messages } from './en.ts';

export type { MessageKey, Messages } from './en.ts';

/** A language with a catalogue. */
export type Locale = 'en' | 'de';
/** The languages with a catalogue. */
export const LOCALES: Locale[] = ['en', 'de'];

const registered: Partial<Record<Locale, Messages>> = { en };

/** Makes `messages` the catalogue of `locale` (./catalogues.ts and ./load.ts call it). */
export function registerCatalogue(locale: Locale, messages: Messages): void {
  registered[locale] = messages;
}

/** Whether the catalogue of `locale` is registered (English always is). */
export function hasCatalogue(locale: Locale): boolean {
  return registered[locale] !== undefined;
}

/** The catalogue of `locale`, English while it is not registered. */
function catalogue(locale: Locale): Messages {
  return registered[locale] ?? en;
}

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
  const messages: Messages = overrides ? { ...catalogue(locale), ...overrides } : catalogue(locale);
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
    // No overrides: the catalogue itself (no copy of its few hundred messages on every page).
    return { locale, messages: props.messages ? { ...catalogue(locale), ...props.messages } : catalogue(locale) };
  }, [props.locale, props.messages, outer.locale]);
  return <LocaleContext.Provider value={value}>{props.children}</LocaleContext.Provider>;
}

/** The translator of the nearest `LocaleProvider` (English outside one). */
export function useT(): Translate {
  const value = useContext(LocaleContext);
  return useMemo(() => makeTranslate(value), [value]);
}
