/**
 * The hosted pages' on-demand catalogues: English is in the first script, every other language is
 * a separate chunk (esbuild code splitting, scripts/build-ui.mjs) loaded only by the pages that
 * show it.
 */
import { hasCatalogue, registerCatalogue, type Locale, type Messages } from './index.tsx';

const LOADERS: Record<Exclude<Locale, 'en'>, () => Promise<Messages>> = {
  de: () => import('./de.ts').then((m) => m.de),
};

/**
 * Loads and registers the catalogue of `locale`, or null when it is already registered (English
 * always is), so a caller can render at once without waiting a microtask.
 *
 * @throws (rejects) when the chunk cannot be fetched (offline, a newer deployment removed it).
 */
export function loadCatalogue(locale: Locale): Promise<void> | null {
  if (locale === 'en' || hasCatalogue(locale)) return null;
  return LOADERS[locale]().then((messages) => registerCatalogue(locale, messages));
}
