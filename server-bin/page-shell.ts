import { LOGO_DATA_URL, LOGO_SVG } from '../ui/logo.ts';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Koa from 'koa';
import { answerAsset, prepareAsset, type Asset } from './asset.ts';

/**
 * What the hosted pages and the dashboard share: a prebuilt script bundle (gzipped once,
 * content-hashed), its serving, and the HTML shell that loads it under a per-response nonce.
 */

/**
 * The package root (the prebuilt bundles live under `dist/ui/`): the folder above server-bin/,
 * whether this file runs from the sources, compiled under dist/lib/server-bin/, or bundled into
 * dist/server/cli.js (what `npm start` runs; scripts/build-lib.mjs).
 */
export const ROOT = packageRoot(dirname(fileURLToPath(import.meta.url)));

function packageRoot(here: string): string {
  if (here.endsWith(join('dist', 'lib', 'server-bin'))) return join(here, '..', '..', '..');
  if (here.endsWith(join('dist', 'server'))) return join(here, '..', '..');
  return join(here, '..');
}

/** A script bundle: its code as an {@link Asset} (gzipped copy, ETag, 16-hex content hash). */
export type Bundle = Asset;

/**
 * A loader for one prebuilt bundle: reads `builtFile` (under the package root, written by
 * `npm run build:ui`; `npm start`, `npm test`, `scripts/test.mjs` and `npm pack` build it first).
 * A missing file fails with an error naming the build command, and the next call tries again.
 * No bundler runs at run time: esbuild is a build tool (devDependency), not a dependency.
 */
export function bundleLoader(builtFile: string): () => Promise<Bundle> {
  let promise: Promise<Bundle> | null = null;
  return () => {
    promise ??= (async () => {
      let code: string;
      try {
        code = await readFile(join(ROOT, builtFile), 'utf8');
      } catch (e) {
        throw new Error(`The UI bundle ${builtFile} is missing: run \`npm run build:ui\` first.`, { cause: e });
      }
      return prepareAsset(code, true);
    })();
    promise.catch(() => {
      promise = null;
    });
    return promise;
  };
}

/**
 * Answers a bundle request (./asset.ts answerAsset): immutable caching when `immutable` (by
 * default: when the request names the current hash, `?v=<hash>`; a content-hashed file name is
 * always), else `no-cache`; an ETag (304 on a match); gzipped when the client accepts it.
 */
export function serveBundle(ctx: Koa.Context, bundle: Bundle, immutable = ctx.query.v === bundle.hash): void {
  const answer = answerAsset(
    bundle,
    'text/javascript; charset=utf-8',
    immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ctx.headers,
  );
  ctx.set(answer.headers);
  ctx.status = answer.status;
  if (answer.body) {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = answer.body;
  }
}

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON safe inside an inline `<script>` (no `</script>`, no line separators). */
export const inlineJson = (o: unknown) =>
  JSON.stringify(o)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * The Content-Security-Policy of our pages: scripts only through the per-response nonce (the
 * bundle's imports and the scripts it adds: 'strict-dynamic'), API calls to this origin, images over
 * HTTPS or data: (project logos), no framing, plugins or base-URL changes. Sandboxed `srcdoc`
 * frames (email previews) inherit it. Cloudflare Turnstile's challenge frame is the one frame
 * allowed (its script comes through 'strict-dynamic': the nonced bundle adds it, and only for a
 * project with a site key; developers.cloudflare.com/turnstile/reference/content-security-policy/).
 */
export function pageCsp(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "connect-src 'self'",
    'frame-src https://challenges.cloudflare.com',
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

export interface PageShellOptions {
  title: string;
  /** Inline CSS for `html, body`. */
  style: string;
  /** Global the page's config is assigned to, e.g. `__GATEHOUSE__`. */
  globalName: string;
  config: unknown;
  /** Path the server saw; the difference to `location.pathname` is a host's mount prefix. */
  serverPath: string;
  scriptPath: string;
  hash: string;
  /**
   * Scripts the bundle imports (URL paths like `scriptPath`): preloaded with it
   * (`<link rel="modulepreload">`), so they do not wait until the bundle is parsed.
   */
  preload?: readonly string[];
  nonce: string;
  noscript: string;
  /**
   * The page's first markup, rendered on the server (trusted HTML, put in the root element), with
   * its style sheet (in the head), the inline script that holds early submits (in the head, under
   * the nonce, so it listens before the form is parsed) and the language it is in (`<html lang>`).
   */
  markup?: { html: string; css: string; script: string; locale: string };
}

/**
 * A URL path of this server (`/handler/handler.js`) as a URL relative to the page at `serverPath`
 * (`/handler/sign-in` → `../handler/handler.js`, `/` → `./x.js`): it then resolves under any mount prefix a host
 * puts in front of our paths (`/auth/handler/sign-in` loads `/auth/handler/handler.js`), with no
 * script to compute the prefix, so the HTML can name the scripts in static tags.
 */
export function relativeToPage(serverPath: string, path: string): string {
  const depth = serverPath.split('/').length - 2;
  return ('../'.repeat(Math.max(depth, 0)) || './') + path.replace(/^\/+/, '');
}

/**
 * The HTML shell: inline config, then the bundle (`<script type="module">`) and the scripts it
 * imports (`<link rel="modulepreload">`) as static tags with the nonce, at URLs relative to the
 * page ({@link relativeToPage}): the browser's preload scanner finds them while the HTML is still
 * being parsed, and fetches them in parallel. With `markup` (a hosted sign-in or sign-up page
 * rendered on the server), the root holds it and an inline script in the head, which runs before
 * the markup is parsed, holds the visitor's submits and clicks until the bundle has rendered
 * (ui/hosted/early-input.ts).
 */
export function pageShell(o: PageShellOptions): string {
  const url = (path: string) => escapeHtml(relativeToPage(o.serverPath, path));
  const preload = (o.preload ?? []).map((p) => `\n<link rel="modulepreload" href="${url(p)}" nonce="${o.nonce}">`).join('');
  return `<!doctype html>
<html lang="${escapeHtml(o.markup?.locale ?? 'en')}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="${LOGO_DATA_URL}" type="image/svg+xml">
<title>${escapeHtml(o.title)}</title>
<style>${o.style}</style>${o.markup ? `\n<style data-gatehouse>${o.markup.css}</style>` : ''}
<script nonce="${o.nonce}">window.${o.globalName}=${inlineJson(o.config)};</script>${o.markup ? `\n<script nonce="${o.nonce}">${o.markup.script}</script>` : ''}
<script type="module" src="${url(`${o.scriptPath}?v=${o.hash}`)}" nonce="${o.nonce}"></script>${preload}
</head>
<body>
${
  o.markup
    ? `<div id="root" data-server-rendered>${o.markup.html}</div>\n<noscript>${escapeHtml(o.noscript)}</noscript>`
    : `<div id="root"><noscript>${escapeHtml(o.noscript)}</noscript></div>`
}
</body>
</html>`;
}

/** Sends a page shell with the page headers: no caching, no framing, no sniffing, the CSP. */
export function sendPage(ctx: Koa.Context, shell: Omit<PageShellOptions, 'nonce'>): void {
  const nonce = randomBytes(16).toString('base64');
  ctx.set('cache-control', 'no-store');
  ctx.set('x-frame-options', 'DENY');
  ctx.set('x-content-type-options', 'nosniff');
  ctx.set('content-security-policy', pageCsp(nonce));
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = pageShell({ ...shell, nonce });
}

/**
 * `GET /favicon.ico` at the server's root: the Gatehouse mark as SVG (browsers ask for it on
 * pages without an icon link, e.g. a JSON answer), cached for a day, instead of a 404.
 */
export function serveFavicon(ctx: Koa.Context): void {
  ctx.set('cache-control', 'public, max-age=86400');
  ctx.type = 'image/svg+xml';
  ctx.body = LOGO_SVG;
}
