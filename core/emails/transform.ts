import { createRequire } from 'node:module';
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
 * esbuild when it can run here (an npm install: its executable comes with the package), else null
 * (the single executable carries no executable for it). Loaded on first use.
 */
function loadEsbuild(): Esbuild | null {
  if (esbuild === undefined) {
    try {
      esbuild = createRequire(import.meta.url)('esbuild') as Esbuild;
      esbuild.transformSync('', { loader: 'tsx' });
    } catch {
      esbuild = null;
    }
  }
  return esbuild;
}

/** Starts the compiler now (esbuild's first call starts its service, about a second). */
export function warmUpCompiler(): void {
  loadEsbuild();
}

/**
 * Compiles TSX email source (templates, themes, drafts) to CommonJS that calls `h(...)` and
 * `Fragment` for JSX. The one place that names the compiler: esbuild, as upstream (its error
 * texts are upstream's), or Sucrase (pure JavaScript) where esbuild cannot run, in the single
 * executable; Sucrase's error texts are its own.
 *
 * @throws CompileError with each problem's place in `virtual:/<file>.tsx`.
 */
export function compileTsx(source: string, file: SourceFile): string {
  const sourcefile = `virtual:/${file}.tsx`;
  const compiler = loadEsbuild();
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
