import { getQuickJS, type QuickJSWASMModule } from 'quickjs-emscripten';
import { KnownError } from '../errors/index.ts';
import * as ReactEmail from '@react-email/components';
import { buildFailedMessage, CompileError, compileTsx, warmUpCompiler, type CompileProblem, type SourceFile } from './transform.ts';
import { SANDBOX_PRELUDE } from './sandbox-prelude.ts';
import type { RenderInput, RenderedEmail } from './render-types.ts';
import { renderEmailTree, warmUpReactEmail, type EmailNode } from './react-email-render.ts';
import { RENDER_MEMORY_LIMIT_BYTES, RENDER_TIME_LIMIT_MS } from './render-limits.ts';

let quickjs: Promise<QuickJSWASMModule> | null = null;

/** Loads QuickJS's WebAssembly module now, so a worker is ready before its first render counts time. */
export async function warmUpSandbox(): Promise<void> {
  await warmUpCompiler();
  quickjs ??= getQuickJS();
  await quickjs;
  await warmUpReactEmail();
}

/** Compiled sources by file and TSX text (bounded; oldest evicted), so repeated sends skip the compiler. */
const compiled = new Map<string, string>();
function compileCached(source: string, file: SourceFile): string {
  const key = `${file}\u0000${source}`;
  const hit = compiled.get(key);
  if (hit !== undefined) return hit;
  const code = compileTsx(source, file);
  if (compiled.size >= 256) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, code);
  return code;
}

/** Compiles both sources; the problems of both in one upstream-style "Build failed" error. */
function compileBoth(input: RenderInput): { themeCode: string | null; templateCode: string | null } {
  const problems: CompileProblem[] = [];
  const compileOne = (source: string | null, file: SourceFile): string | null => {
    if (source === null) return null;
    try {
      return compileCached(source, file);
    } catch (error) {
      if (error instanceof CompileError) problems.push(...error.problems);
      else throw renderingError(error instanceof Error ? error.message : String(error));
      return null;
    }
  };
  const templateCode = compileOne(input.templateSource, 'template');
  const themeCode = compileOne(input.themeSource ?? NO_THEME_SOURCE, 'theme');
  if (problems.length > 0) throw renderingError(buildFailedMessage(problems));
  return { themeCode, templateCode };
}

/** The names `@react-email/components` exports, handed to the guest as render-later markers. */
const REACT_EMAIL_NAMES = JSON.stringify(Object.keys(ReactEmail).filter((name) => name !== 'render'));

/**
 * The theme of "no theme" (`theme_id: false`): the bare document, Tailwind classes inlined, as
 * upstream renders a template without a theme.
 */
const NO_THEME_SOURCE = `import { Html, Tailwind, Body } from '@react-email/components';
export function EmailTheme(props) { return <Html><Tailwind><Body>{props.children}</Body></Tailwind></Html>; }`;

/** Upstream's build error for a theme without an `EmailTheme` export (its bundle imports it by name). */
const NO_EMAIL_THEME =
  'Build failed with 1 error:\nvirtual:/render.tsx:9:9: ERROR: No matching export in "virtual:/theme.tsx" for import "EmailTheme"';

function renderingError(message: string): KnownError {
  return new KnownError('EMAIL_RENDERING_ERROR', { error: message });
}

/**
 * Compiles and renders email TSX inside a QuickJS (WebAssembly) sandbox, in the calling thread
 * (a render worker, see render-pool.ts; never the main thread): a fresh runtime per render with a memory limit, a stack limit and an interrupt deadline, no `process`, no file
 * system or network, and a `require` that serves only the email component modules. The guest
 * calls the template's and theme's components and hands back the element tree as data; this
 * thread renders it with react-email (react-email-render.ts), so the HTML is react-email's.
 *
 * @throws KnownError EMAIL_RENDERING_ERROR `{error}` with the compiler's or the guest's message,
 *   for syntax errors, forbidden modules, thrown errors, timeouts and memory exhaustion.
 */
export async function renderInThisThread(input: RenderInput): Promise<RenderedEmail> {
  const { themeCode, templateCode } = compileBoth(input);
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
__defineReactEmail(${REACT_EMAIL_NAMES});
(function () {
  var input = JSON.parse(${JSON.stringify(JSON.stringify({ props: input.props, html: input.html ?? null, unsubscribeLink: input.unsubscribeLink ?? null }))});
  var theme = ${themeCode === null ? 'null' : `__load(${JSON.stringify(themeCode)})`};
  var template = ${templateCode === null ? 'null' : `__load(${JSON.stringify(templateCode)})`};
  if (theme && !('EmailTheme' in theme)) return JSON.stringify({ buildError: ${JSON.stringify(NO_EMAIL_THEME)} });
  if (theme && typeof theme.EmailTheme !== 'function') throw new Error('The theme must export a function EmailTheme');
  if (template && typeof template.EmailTemplate !== 'function') throw new Error('The template must export a function EmailTemplate');
  var body = template ? h(template.EmailTemplate, input.props) : h('div', { dangerouslySetInnerHTML: { __html: input.html || '' } });
  var tree = theme ? h(theme.EmailTheme, { unsubscribeLink: input.unsubscribeLink || undefined, children: body }) : body;
  var data = __serialize(tree);
  return JSON.stringify({ tree: data, subject: __meta.subject, notificationCategory: __meta.category });
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
    const parsed = JSON.parse(json) as {
      tree: EmailNode;
      subject: string | null;
      notificationCategory: string | null;
      buildError?: string;
    };
    if (parsed.buildError !== undefined) throw renderingError(parsed.buildError);
    let html: string;
    try {
      html = await renderEmailTree(parsed.tree);
    } catch (error) {
      throw renderingError(error instanceof Error ? error.message : String(error));
    }
    return { html, subject: parsed.subject, notificationCategory: parsed.notificationCategory };
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
