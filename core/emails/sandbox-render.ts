import { getQuickJS, type QuickJSWASMModule } from 'quickjs-emscripten';
import { KnownError } from '../errors/index.ts';
import { compileTsx } from './transform.ts';
import { SANDBOX_PRELUDE } from './sandbox-prelude.ts';
import type { RenderInput, RenderedEmail } from './render-types.ts';
import { RENDER_MEMORY_LIMIT_BYTES, RENDER_TIME_LIMIT_MS } from './render-limits.ts';

let quickjs: Promise<QuickJSWASMModule> | null = null;

/** Loads QuickJS's WebAssembly module now, so a worker is ready before its first render counts time. */
export async function warmUpSandbox(): Promise<void> {
  quickjs ??= getQuickJS();
  await quickjs;
}

/** Compiled sources by TSX text (bounded; oldest evicted), so repeated sends skip the compiler. */
const compiled = new Map<string, string>();
function compileCached(source: string): string {
  const hit = compiled.get(source);
  if (hit !== undefined) return hit;
  const code = compileTsx(source);
  if (compiled.size >= 256) compiled.delete(compiled.keys().next().value!);
  compiled.set(source, code);
  return code;
}

function renderingError(message: string): KnownError {
  return new KnownError('EMAIL_RENDERING_ERROR', { error: message });
}

/**
 * Compiles and renders email TSX inside a QuickJS (WebAssembly) sandbox, in the calling thread
 * (a render worker, see render-pool.ts; never the main thread): a fresh runtime per render with a memory limit, a stack limit and an interrupt deadline, no `process`, no file
 * system or network, and a `require` that serves only the email component modules. The guest
 * renders JSX straight to HTML with a small runtime (not React's renderer).
 *
 * @throws KnownError EMAIL_RENDERING_ERROR `{error}` with the compiler's or the guest's message,
 *   for syntax errors, forbidden modules, thrown errors, timeouts and memory exhaustion.
 */
export async function renderInThisThread(input: RenderInput): Promise<RenderedEmail> {
  let themeCode: string | null = null;
  let templateCode: string | null = null;
  try {
    if (input.themeSource !== null) themeCode = compileCached(input.themeSource);
    if (input.templateSource !== null) templateCode = compileCached(input.templateSource);
  } catch (error) {
    throw renderingError(error instanceof Error ? error.message : String(error));
  }
  quickjs ??= getQuickJS();
  const module = await quickjs;
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(RENDER_MEMORY_LIMIT_BYTES);
  runtime.setMaxStackSize(1024 * 1024);
  const deadline = Date.now() + RENDER_TIME_LIMIT_MS;
  let timedOut = false;
  runtime.setInterruptHandler(() => {
    if (Date.now() > deadline) {
      timedOut = true;
      return true;
    }
    return false;
  });
  const context = runtime.newContext();
  try {
    const program = `${SANDBOX_PRELUDE}
(function () {
  var input = JSON.parse(${JSON.stringify(JSON.stringify({ props: input.props, html: input.html ?? null, unsubscribeLink: input.unsubscribeLink ?? null }))});
  var theme = ${themeCode === null ? 'null' : `__load(${JSON.stringify(themeCode)})`};
  var template = ${templateCode === null ? 'null' : `__load(${JSON.stringify(templateCode)})`};
  if (theme && typeof theme.EmailTheme !== 'function') throw new Error('The theme must export a function EmailTheme');
  if (template && typeof template.EmailTemplate !== 'function') throw new Error('The template must export a function EmailTemplate');
  var body = template ? h(template.EmailTemplate, input.props) : h('div', { dangerouslySetInnerHTML: { __html: input.html || '' } });
  var tree = theme ? h(theme.EmailTheme, { unsubscribeLink: input.unsubscribeLink || undefined, children: body }) : body;
  var html = renderToString(tree);
  return JSON.stringify({ html: html, subject: __meta.subject, notificationCategory: __meta.category });
})()`;
    const result = context.evalCode(program, 'email.js');
    if (result.error) {
      const err = context.dump(result.error) as { name?: string; message?: string } | string;
      result.error.dispose();
      const message = typeof err === 'object' && err ? `${err.name ?? 'Error'}: ${err.message ?? ''}` : String(err);
      if (/out of memory/i.test(message)) throw renderingError(`Rendering ran out of memory (limit ${RENDER_MEMORY_LIMIT_BYTES} bytes)`);
      if (timedOut) throw renderingError(`Rendering took longer than ${RENDER_TIME_LIMIT_MS} ms and was stopped`);
      throw renderingError(message);
    }
    const json = context.getString(result.value);
    result.value.dispose();
    const parsed = JSON.parse(json) as RenderedEmail;
    return {
      html: parsed.html.startsWith('<html') ? `<!DOCTYPE html>${parsed.html}` : parsed.html,
      subject: parsed.subject,
      notificationCategory: parsed.notificationCategory,
    };
  } catch (error) {
    if (error instanceof KnownError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw renderingError(
      timedOut
        ? `Rendering took longer than ${RENDER_TIME_LIMIT_MS} ms and was stopped`
        : /out of memory|memory access/i.test(message)
          ? `Rendering ran out of memory (limit ${RENDER_MEMORY_LIMIT_BYTES} bytes)`
          : message,
    );
  } finally {
    try {
      context.dispose();
    } catch {
      /* a runtime hit by OOM may refuse */
    }
    try {
      runtime.dispose();
    } catch {
      /* idem */
    }
  }
}
