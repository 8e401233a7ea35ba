import { transformSync } from 'esbuild';

/**
 * Compiles TSX email source (templates, themes, drafts) to CommonJS that calls `h(...)` and
 * `Fragment` for JSX. The one place that names the compiler, so it can be swapped for a pure-JS
 * one (e.g. sucrase) where esbuild's native binary is awkward to ship.
 *
 * @throws Error with the compiler's message on a syntax or type-syntax error.
 */
export function compileTsx(source: string): string {
  try {
    return transformSync(source, { loader: 'tsx', format: 'cjs', jsx: 'transform', jsxFactory: 'h', jsxFragment: 'Fragment', target: 'es2020', logLevel: 'silent' }).code;
  } catch (error) {
    const errors = (error as { errors?: Array<{ text: string; location?: { line: number; column: number } | null }> }).errors;
    if (errors?.length) {
      throw new Error(errors.map((e) => (e.location ? `${e.location.line}:${e.location.column}: ${e.text}` : e.text)).join('\n'));
    }
    throw error;
  }
}
