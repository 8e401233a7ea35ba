import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sea from 'node:sea';

/** Asset key of the JSON manifest the build writes (SeaManifest). */
export const MANIFEST_ASSET = 'gatehouse-manifest.json';

/** What `scripts/build-binary.mjs` embedded: the version, native addon asset keys, static file paths. */
export interface SeaManifest {
  version: string;
  /** Native addons by file name (asset key `native/<file>`) → sha256 hex of their bytes. */
  addons: Record<string, string>;
  /** URL paths of embedded static files (each stored under the asset key `static<path>`). */
  static: string[];
  /** File names of the embedded documentation pages (asset key `docs/<name>`), for the dashboard assistant. */
  docs?: string[];
  /**
   * Single-page fallbacks: a request under the prefix that matches no file gets this file
   * (e.g. `{ "/handler/": "/handler/index.html" }`), longest prefix first.
   */
  fallbacks: Record<string, string>;
}

/** True when running as the single executable (Node SEA). */
export function isSea(): boolean {
  try {
    return sea.isSea();
  } catch {
    return false;
  }
}

let manifest: SeaManifest | undefined;

/** The build manifest embedded in the executable. @throws Error when not running as the SEA. */
export function seaManifest(): SeaManifest {
  manifest ??= JSON.parse(sea.getAsset(MANIFEST_ASSET, 'utf8')) as SeaManifest;
  return manifest;
}

/**
 * Makes `dir` (recursively, mode 0700) and checks it is private: owned by this user and not
 * writable by group or others, so no other local user can plant a library in it.
 *
 * @throws Error when the folder cannot be made or is not private.
 */
function privateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = statSync(dir);
  const uid = process.getuid?.();
  if ((uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) {
    throw new Error(`${dir} is not private (owner ${st.uid}, mode ${(st.mode & 0o777).toString(8)})`);
  }
  return dir;
}

/**
 * The private cache folder native addons are written to: `$GATEHOUSE_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/gatehouse` or `~/.cache/gatehouse`, falling back to the OS temp folder when the
 * home folder is not usable. Versioned by `<version>-<hash of the addon>` so two builds never
 * share (or overwrite) each other's files. The folder must be owned by this user and not
 * writable by others.
 *
 * @throws Error when neither folder can be made private.
 */
export function addonCacheDir(version: string, digest: string): string {
  const base = process.env.GATEHOUSE_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'gatehouse');
  try {
    return privateDir(join(base, `${version}-${digest}`));
  } catch (error) {
    const fallback = join(tmpdir(), `gatehouse-${process.getuid?.() ?? 'user'}`);
    try {
      privateDir(fallback);
      return privateDir(join(fallback, `${version}-${digest}`));
    } catch {
      throw new Error(`Cannot make a private cache folder for native addons: ${(error as Error).message}. Set GATEHOUSE_CACHE_DIR.`);
    }
  }
}

const loaded = new Map<string, unknown>();

/**
 * The bytes of an SEA asset, e.g. `wasm/quickjs-wasmfile-release-sync.wasm` (the QuickJS
 * WebAssembly that email templates run in, handed to Emscripten as `wasmBinary`).
 *
 * @throws Error when not running as the SEA or when the asset does not exist.
 * @public Called by the code scripts/build-binary.mjs generates (no import knip could see).
 */
export function embeddedAsset(key: string): Uint8Array {
  return new Uint8Array(sea.getAsset(key));
}

/** An embedded text asset (e.g. a bundled worker, `workers/<name>.cjs`). @throws Error outside the SEA or for an unknown key. */
export function embeddedText(key: string): string {
  return sea.getAsset(key, 'utf8');
}

/**
 * Writes an embedded file (`native/<file>`) to the versioned private cache folder unless the file
 * there already has exactly the embedded bytes (atomically: temp file + rename) and returns its
 * path.
 *
 * @throws Error when the file was not embedded or no private cache folder can be made.
 */
function extractEmbedded(file: string, digest: string | undefined, mode: number): string {
  if (!digest) throw new Error(`${file} was not embedded in this executable.`);
  const bytes = Buffer.from(sea.getAsset(`native/${file}`));
  const dir = addonCacheDir(seaManifest().version, digest.slice(0, 16));
  const path = join(dir, file);
  let current: Buffer | undefined;
  try {
    current = readFileSync(path);
  } catch {
    /* not written yet */
  }
  if (!current || !current.equals(bytes)) {
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, bytes, { mode });
    renameSync(temp, path);
  }
  return path;
}

/**
 * Loads a native addon embedded as an SEA asset (`native/<file>`): extracts it to the versioned
 * private cache folder (see extractEmbedded) and loads it with `process.dlopen`, since the SEA's
 * `require` only loads built-in modules. Returns the addon's `module.exports`.
 *
 * @param file the addon's file name, e.g. `better_sqlite3.node` or `argon2.node`.
 * @throws Error when not running as the SEA, when the addon was not embedded, or when no private
 *   cache folder can be made.
 * @public Called by the code scripts/build-binary.mjs generates (no import knip could see).
 */
export function loadEmbeddedAddon(file: string): unknown {
  const cached = loaded.get(file);
  if (cached) return cached;
  const path = extractEmbedded(file, seaManifest().addons[file], 0o600);
  const mod = { exports: {} as unknown };
  process.dlopen(mod, path);
  loaded.set(file, mod.exports);
  return mod.exports;
}
