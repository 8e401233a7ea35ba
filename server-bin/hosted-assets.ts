import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundleLoader, ROOT, type Bundle } from './page-shell.ts';

/**
 * The hosted pages' prebuilt scripts (`npm run build:ui`, scripts/build-ui.mjs): the entry
 * `dist/ui/handler/handler.js`, the chunks it and its on-demand pages import
 * (`dist/ui/handler/chunks/*.js`, content-hashed names) and `handler.json` listing them.
 */

/** URL path of the hosted pages' folder (the entry is `handler.js` in it, the chunks `chunks/*.js`). */
export const HOSTED_ASSETS_PATH = '/handler/';

const DIR = 'dist/ui/handler';

/** The entry and what `handler.json` says about the chunks. */
export interface HostedBuild {
  entry: Bundle;
  /** Chunks the entry imports, directly or through other chunks (`chunks/chunk-ABC.js`): the page preloads them. */
  preload: string[];
  /** Every chunk of the build (`chunks/….js`): the only ones served. */
  chunks: ReadonlySet<string>;
}

const loadEntry = bundleLoader(`${DIR}/handler.js`);
let manifest: Promise<{ preload: string[]; chunks: string[] }> | null = null;
const chunkLoaders = new Map<string, () => Promise<Bundle>>();

/**
 * The hosted pages' build, read once (a failed read is tried again on the next call).
 *
 * @throws (rejects) when the build is missing (the error names `npm run build:ui`), as inside the
 *   single executable, where the static-file layer serves these files (server-bin/sea/static-files.ts).
 */
export async function loadHostedBuild(): Promise<HostedBuild> {
  manifest ??= readFile(join(ROOT, DIR, 'handler.json'), 'utf8').then(
    (text) => JSON.parse(text) as { preload: string[]; chunks: string[] },
    (e: unknown) => {
      manifest = null;
      throw new Error(`The UI build ${DIR}/handler.json is missing: run \`npm run build:ui\` first.`, { cause: e });
    },
  );
  const [entry, m] = await Promise.all([loadEntry(), manifest]);
  return { entry, preload: m.preload, chunks: new Set(m.chunks) };
}

/**
 * The chunk at `name` (`chunks/chunk-ABC.js`, relative to {@link HOSTED_ASSETS_PATH}), or null
 * when the build has no such chunk (only names listed in `handler.json` are read from disk).
 */
export async function loadHostedChunk(name: string): Promise<Bundle | null> {
  const build = await loadHostedBuild();
  if (!build.chunks.has(name)) return null;
  let load = chunkLoaders.get(name);
  if (!load) {
    load = bundleLoader(`${DIR}/${name}`);
    chunkLoaders.set(name, load);
  }
  return load();
}
