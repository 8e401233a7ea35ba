import { transform } from 'sucrase';

/** The name a source is compiled under, as upstream's bundle names its virtual files. */
export type SourceFile = 'template' | 'theme';

/** One compile error, located as esbuild locates it (1-based line, 0-based column). */
export interface CompileProblem {
  file: string;
  line: number;
  column: number;
  text: string;
}

/** A source that does not compile: every problem found. */
export class CompileError extends Error {
  readonly problems: readonly CompileProblem[];
  constructor(problems: readonly CompileProblem[]) {
    super(problems.map((p) => `${p.file}:${p.line}:${p.column}: ERROR: ${p.text}`).join('\n'));
    this.problems = problems;
  }
}

/**
 * Upstream's message for sources that do not build (esbuild's): `Build failed with N error(s):`
 * and one `virtual:/<file>.tsx:<line>:<column>: ERROR: <text>` line per problem.
 */
export function buildFailedMessage(problems: readonly CompileProblem[]): string {
  const lines = problems.map((p) => `${p.file}:${p.line}:${p.column}: ERROR: ${p.text}`);
  return `Build failed with ${problems.length} error${problems.length === 1 ? '' : 's'}:\n${lines.join('\n')}`;
}

type Esbuild = typeof import('esbuild');
let esbuild: Esbuild | null | undefined;

/**
 * Loads esbuild if it can run here (an npm install: its executable comes with the package); the
 * single executable carries no executable for it, so there {@link compileTsx} uses Sucrase. The
 * render worker calls this before it says it is ready (esbuild's first call starts its service,
 * about a second).
 */
export async function warmUpCompiler(): Promise<void> {
  if (esbuild !== undefined) return;
  try {
    const loaded = (await import('esbuild')) as Esbuild & { default?: Esbuild };
    const api = typeof loaded.transformSync === 'function' ? loaded : loaded.default!;
    api.transformSync('', { loader: 'tsx' });
    esbuild = api;
  } catch {
    esbuild = null;
  }
}

/**
 * Compiles TSX email source (templates, themes, drafts) to CommonJS that calls `h(...)` and
 * `Fragment` for JSX. The one place that names the compiler: esbuild, as upstream (its error
 * texts are upstream's), once {@link warmUpCompiler} has loaded it, else Sucrase (pure
 * JavaScript: the single executable); Sucrase's error texts are its own.
 *
 * @throws CompileError with each problem's place in `virtual:/<file>.tsx`.
 */
export function compileTsx(source: string, file: SourceFile): string {
  const sourcefile = `virtual:/${file}.tsx`;
  const compiler = esbuild ?? null;
  if (compiler) {
    try {
      return compiler.transformSync(source, {
        loader: 'tsx',
        sourcefile,
        format: 'cjs',
        jsxFactory: 'h',
        jsxFragment: 'Fragment',
        logLevel: 'silent',
      }).code;
    } catch (error) {
      const errors = (error as { errors?: Array<{ text: string; location: { line: number; column: number } | null }> }).errors;
      if (!errors?.length) throw error;
      throw new CompileError(
        errors.map((e) => ({ file: sourcefile, line: e.location?.line ?? 1, column: e.location?.column ?? 0, text: e.text })),
      );
    }
  }
  try {
    return transform(source, {
      transforms: ['typescript', 'jsx', 'imports'],
      jsxPragma: 'h',
      jsxFragmentPragma: 'Fragment',
      production: true,
      filePath: `${file}.tsx`,
    }).code;
  } catch (error) {
    const e = error as { message?: string; loc?: { line: number; column: number } };
    const text = (e.message ?? String(error)).replace(/\s*\(\d+:\d+\)$/, '');
    throw new CompileError([{ file: sourcefile, line: e.loc?.line ?? 1, column: e.loc?.column ?? 0, text }]);
  }
}
