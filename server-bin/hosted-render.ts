import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compileFunction } from 'node:vm';
import { ROOT } from './page-shell.ts';
import { embeddedText, isSea } from './sea/native.ts';

/**
 * The server's render of the hosted sign-in and sign-up pages (issue 28): the prebuilt file
 * `dist/ui/hosted-ssr/render.cjs` (`npm run build:ui`, scripts/build-ui.mjs, from
 * ui/hosted/server-render.tsx: the same components as the browser bundle), read from disk or the
 * executable's assets (scripts/build-binary.mjs) and run in this process. The host imports no UI
 * source; like the browser bundles, the file is built before the server runs.
 */

/** The page's first markup, as ui/hosted/server-render.tsx returns it. */
export interface HostedMarkup {
  html: string;
  css: string;
  script: string;
  locale: string;
}

type Render = (config: unknown, search: string, acceptLanguage: string) => HostedMarkup | null;

const FILE = 'dist/ui/hosted-ssr/render.cjs';
/** Key of the file among the executable's assets. */
const ASSET = 'hosted-ssr/render.cjs';

let loading: Promise<Render | null> | null = null;

async function load(): Promise<Render | null> {
  try {
    const code = isSea() ? embeddedText(ASSET) : await readFile(join(ROOT, FILE), 'utf8');
    const module = { exports: {} as { renderHostedMarkup?: Render } };
    // CommonJS without imports (esbuild bundled everything but node:* built-ins, which it does not use).
    compileFunction(code, ['module', 'exports'], { filename: FILE })(module, module.exports);
    return module.exports.renderHostedMarkup ?? null;
  } catch {
    // Not built (or an executable built without it): the page's script renders the page, as before.
    return null;
  }
}

/**
 * The first markup of the hosted page described by `config` (the inline page config, whose
 * `serverPath` names the page), or null when the page is not rendered on the server (only sign-in
 * and sign-up are), the render file is missing, or the render failed: the page's script then
 * renders it. `search` is the request's query (`?lang=de`), `acceptLanguage` its header.
 */
export async function renderHostedPage(config: unknown, search: string, acceptLanguage: string): Promise<HostedMarkup | null> {
  loading ??= load();
  const render = await loading;
  if (!render) return null;
  try {
    return render(config, search, acceptLanguage);
  } catch {
    return null;
  }
}
