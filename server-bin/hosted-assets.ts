import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareAsset } from './asset.ts';
import { ROOT, type Bundle } from './page-shell.ts';
import { embeddedText, isSea } from './sea/native.ts';

/**
 * The hosted pages' prebuilt scripts (`npm run build:ui`, scripts/build-ui.mjs): the entry
 * `dist/ui/handler/handler.js`, the chunks it and its on-demand pages import
 * (`dist/ui/handler/chunks/*.js`, content-hashed names) and `handler.json` listing them. Inside the
 * single executable they are read from its embedded copy of the folder (scripts/build-binary.mjs),
 * whose static-file layer also serves them (server-bin/sea/static-files.ts).
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

/** A file of the build (`handler.js`, `chunks/….js`), from disk or the executable's embedded copy. */
async function readBuilt(name: string): Promise<string> {
  try {
    return isSea() ? embeddedText(`static${HOSTED_ASSETS_PATH}${name}`) : await readFile(join(ROOT, DIR, name), 'utf8');
  } catch (e) {
    throw new Error(`The UI build ${DIR}/${name} is missing: run \`npm run build:ui\` first.`, { cause: e });
  }
}

/** `load` run once; a failure is forgotten, so the next call tries again (e.g. after `npm run build:ui`). */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | null = null;
  return () => {
    promise ??= load();
    promise.catch(() => {
      promise = null;
    });
    return promise;
  };
}

const loadBuild = once(async (): Promise<HostedBuild> => {
  const [entry, manifest] = await Promise.all([readBuilt('handler.js'), readBuilt('handler.json')]);
  const m = JSON.parse(manifest) as { preload: string[]; chunks: string[] };
  return { entry: prepareAsset(entry, true), preload: m.preload, chunks: new Set(m.chunks) };
});
const chunkLoaders = new Map<string, () => Promise<Bundle>>();

/**
 * The hosted pages' build, read once (a failed read is tried again on the next call).
 *
 * @throws (rejects) when the build is missing: the error names `npm run build:ui`.
 */
export function loadHostedBuild(): Promise<HostedBuild> {
  return loadBuild();
}

/**
 * The chunk at `name` (`chunks/chunk-ABC.js`, relative to {@link HOSTED_ASSETS_PATH}), or null
 * when the build has no such chunk (only names listed in `handler.json` are read).
 */
export async function loadHostedChunk(name: string): Promise<Bundle | null> {
  const build = await loadBuild();
  if (!build.chunks.has(name)) return null;
  let load = chunkLoaders.get(name);
  if (!load) {
    load = once(async () => prepareAsset(await readBuilt(name), true));
    chunkLoaders.set(name, load);
  }
  return load();
}
