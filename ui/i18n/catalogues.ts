/**
 * Every message catalogue, registered on import: the component library (../index.ts) speaks every
 * language at once. The hosted pages do not import this module; they load the one language they
 * show (./load.ts).
 */
import { en } from './en.ts';
import { de } from './de.ts';
import { registerCatalogue, type Locale, type Messages } from './index.tsx';

/** The languages with their catalogues. */
export const CATALOGUES = { en, de } as const satisfies Record<Locale, Messages>;

registerCatalogue('de', de);
