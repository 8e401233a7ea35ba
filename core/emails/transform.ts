import { transform } from 'sucrase';

/**
 * Compiles TSX email source (templates, themes, drafts) to CommonJS that calls `h(...)` and
 * `Fragment` for JSX. The one place that names the compiler. Sucrase is pure JavaScript, so the
 * single executable carries it inside its bundle (esbuild's native binary cannot be loaded there).
 *
 * @throws Error with the compiler's message (and line:column) on a syntax error.
 */
export function compileTsx(source: string): string {
  try {
    return transform(source, {
      transforms: ['typescript', 'jsx', 'imports'],
      jsxPragma: 'h',
      jsxFragmentPragma: 'Fragment',
      production: true,
      filePath: 'template.tsx',
    }).code;
  } catch (error) {
    const e = error as { message?: string; loc?: { line: number; column: number } };
    const where = e.loc ? `${e.loc.line}:${e.loc.column + 1}: ` : '';
    throw new Error(`${where}${e.message ?? String(error)}`);
  }
}
