/**
 * Writes the README's "Running it" table from the settings table (server-bin/settings.ts).
 * `server-bin/settings.test.ts` fails while the README's copy is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { README_MARKERS, readmeTable } from '../server-bin/settings.ts';

const path = join(import.meta.dirname, '..', 'README.md');
const text = readFileSync(path, 'utf8');
const start = text.indexOf(README_MARKERS.start);
const end = text.indexOf(README_MARKERS.end);
if (start < 0 || end < start) throw new Error(`README.md has no settings table markers (${README_MARKERS.start})`);
writeFileSync(path, `${text.slice(0, start + README_MARKERS.start.length)}\n${readmeTable()}\n${text.slice(end)}`);
