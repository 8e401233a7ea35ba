import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import * as sea from 'node:sea';
import { isSea, seaManifest } from './native.ts';
import { answerAsset, prepareAsset, type Asset } from '../asset.ts';

/** One file to serve: its body, ETag and gzip copy (compressible types only, ../asset.ts) and its type. */
export interface StaticFile extends Asset {
  contentType: string;
}

const compressible = (contentType: string) => /^(text\/|application\/(json|javascript)|image\/svg)/.test(contentType);

/** A read-only set of prebuilt files (hosted pages, dashboard) addressed by URL path. */
export interface StaticFiles {
  /** The file for a URL path (exact, then `<path>/index.html`, then the longest SPA fallback). */
  get(urlPath: string): StaticFile | undefined;
  /** Number of files. */
  readonly size: number;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** The content type for a file name, by extension (application/octet-stream when unknown). */
export function contentTypeFor(name: string): string {
  return TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

function lookup(paths: ReadonlySet<string>, fallbacks: Record<string, string>, load: (path: string) => Buffer) {
  const prefixes = Object.keys(fallbacks).sort((a, b) => b.length - a.length);
  const cache = new Map<string, StaticFile>();
  return (urlPath: string): StaticFile | undefined => {
    let path: string;
    try {
      path = decodeURIComponent(urlPath);
    } catch {
      return undefined;
    }
    if (path.includes('\0') || path.split('/').includes('..')) return undefined;
    let hit: string | undefined;
    if (paths.has(path)) hit = path;
    else if (paths.has(`${path.replace(/\/$/, '')}/index.html`)) hit = `${path.replace(/\/$/, '')}/index.html`;
    else {
      const prefix = prefixes.find((p) => path === p.replace(/\/$/, '') || path.startsWith(p));
      if (prefix && paths.has(fallbacks[prefix]!)) hit = fallbacks[prefix]!;
    }
    if (!hit) return undefined;
    let file = cache.get(hit);
    if (!file) {
      const contentType = contentTypeFor(hit);
      file = { ...prepareAsset(load(hit), compressible(contentType)), contentType };
      cache.set(hit, file);
    }
    return file;
  };
}

/**
 * The static files embedded in the single executable by `scripts/build-binary.mjs` (assets
 * `static<path>`, listed in the manifest); an empty set when not running as the SEA.
 */
export function embeddedStaticFiles(): StaticFiles {
  if (!isSea()) return { get: () => undefined, size: 0 };
  const manifest = seaManifest();
  const get = lookup(new Set(manifest.static), manifest.fallbacks, (path) => Buffer.from(sea.getAsset(`static${path}`)));
  return { get, size: manifest.static.length };
}

/** Every file under `dir`, as URL paths under `mount` (e.g. `/handler/app.js`). */
export function listFolder(dir: string, mount: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.set(`${mount.replace(/\/$/, '')}/${relative(dir, full).split(sep).join('/')}`, full);
    }
  };
  walk(dir);
  return out;
}

/** The files of a folder on disk served under `mount` (for `npm start` and tests). */
export function folderStaticFiles(dir: string, mount = '/', fallbacks: Record<string, string> = {}): StaticFiles {
  const files = listFolder(dir, mount);
  const get = lookup(new Set(files.keys()), fallbacks, (path) => readFileSync(files.get(path)!));
  return { get, size: files.size };
}

/**
 * Wraps a Node request handler so GET/HEAD requests outside `/api/` and `/health` that match a
 * static file are answered from `files` (`cache-control: no-cache` with an ETag; a matching
 * `if-none-match` gets 304; gzipped when the client accepts it: ../asset.ts answerAsset), with the
 * `security` headers (../security-headers.ts); everything else goes to `handler`.
 */
export function withStaticFiles(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  files: StaticFiles,
  security: ReadonlyArray<readonly [string, string]> = [],
): (req: IncomingMessage, res: ServerResponse) => void {
  if (files.size === 0) return handler;
  return (req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0]!;
    if ((req.method === 'GET' || req.method === 'HEAD') && !path.startsWith('/api/') && path !== '/api' && !path.startsWith('/health')) {
      const file = files.get(path);
      if (file) {
        // Revalidate every time: an upgraded binary must never leave an old script cached.
        const answer = answerAsset(file, file.contentType, 'no-cache', req.headers);
        for (const [name, value] of security) res.setHeader(name, value);
        if (answer.body) answer.headers['content-length'] = String(answer.body.length);
        res.writeHead(answer.status, answer.headers);
        res.end(req.method === 'HEAD' || !answer.body ? undefined : answer.body);
        return;
      }
    }
    handler(req, res);
  };
}
