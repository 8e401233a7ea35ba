/**
 * Writes `sdk/generated/routes.ts` from the operation registry (core/operations/registry.ts): a
 * table keyed by operation id with each operation's method and path template, and plain
 * TypeScript types for each operation's input (params, query, body) and output.
 *
 * The types are written out as TypeScript, not as `import type` of the operation modules with
 * valibot's `InferInput`: the published `gatehouse-sdk` package (scripts/build-packages.mjs) ships
 * the SDK's declarations and is type-checked in a scratch app without the core sources, valibot or
 * kysely installed (scripts/check-packages.mjs), so the generated file must stand alone.
 *
 * `node --import tsx scripts/gen-routes.ts` writes the file; with `--check` it writes nothing and
 * exits 1 when the file is missing or differs from what the registry gives (CI: .ci/run).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyOperation } from '../core/operations/define.ts';

export const ROUTES_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'sdk', 'generated', 'routes.ts');

/** A valibot schema as a plain object (the generator reads its fields, never runs it). */
interface SchemaNode {
  kind?: string;
  type: string;
  entries?: Record<string, SchemaNode>;
  rest?: SchemaNode;
  item?: SchemaNode;
  items?: SchemaNode[];
  options?: (SchemaNode | string | number)[];
  wrapped?: SchemaNode;
  key?: SchemaNode;
  value?: SchemaNode;
  literal?: unknown;
  enum?: Record<string, string | number>;
  pipe?: { kind?: string; type: string; title?: string; metadata?: { raw?: string } }[];
  getter?: () => SchemaNode;
}

const OPTIONAL_TYPES = new Set(['optional', 'nullish', 'exact_optional', 'undefinedable']);
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Turns valibot schemas into TypeScript type text. Components (schemas named with `component()`,
 * a `title` action in their pipe) become named types, emitted once; which side (input or output)
 * is read is fixed per instance, since a schema with transforms accepts one type and gives another.
 */
class TypeWriter {
  /** Named types: name → declaration text (filled as schemas refer to them). */
  readonly named = new Map<string, string>();
  private readonly namedSchemas = new Map<string, SchemaNode>();
  private readonly depth = new Set<SchemaNode>();

  /** `prefix` starts every named type's name (`In`, `Out`). */
  private readonly prefix: string;

  constructor(prefix: string) {
    this.prefix = prefix;
  }

  type(schema: SchemaNode, indent = ''): string {
    const title = schema.pipe?.find((a) => a.type === 'title')?.title;
    if (title && IDENT.test(title)) {
      const name = this.prefix + title;
      const seen = this.namedSchemas.get(name);
      if (seen === schema) return name;
      if (!seen) {
        this.namedSchemas.set(name, schema);
        this.named.set(name, ''); // reserved while its body is written
        this.named.set(name, this.bare(schema, ''));
        return name;
      }
      const body = this.bare(schema, '');
      if (body === this.named.get(name)) return name;
      return this.bare(schema, indent); // the same name for a different shape: written in place
    }
    return this.bare(schema, indent);
  }

  private bare(schema: SchemaNode, indent: string): string {
    if (this.depth.has(schema)) return 'unknown';
    this.depth.add(schema);
    try {
      return this.write(schema, indent);
    } finally {
      this.depth.delete(schema);
    }
  }

  private write(s: SchemaNode, indent: string): string {
    switch (s.type) {
      case 'string':
        return 'string';
      case 'number':
        return 'number';
      case 'bigint':
        return 'bigint';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'undefined':
      case 'void':
        return 'undefined';
      case 'never':
        return 'never';
      case 'date':
        return 'Date';
      case 'unknown':
      case 'any':
      case 'custom':
      case 'instance':
      case 'blob':
      case 'file':
        return 'unknown';
      case 'literal':
        return JSON.stringify(s.literal);
      case 'picklist':
        return union((s.options ?? []).map((o) => JSON.stringify(o)));
      case 'enum':
        return union(Object.values(s.enum ?? {}).map((o) => JSON.stringify(o)));
      case 'optional':
      case 'exact_optional':
      case 'undefinedable':
        return union([this.type(s.wrapped!, indent), 'undefined']);
      case 'nullable':
        return union([this.type(s.wrapped!, indent), 'null']);
      case 'nullish':
        return union([this.type(s.wrapped!, indent), 'null', 'undefined']);
      case 'non_optional':
      case 'non_nullable':
      case 'non_nullish':
        return this.type(s.wrapped!, indent);
      case 'array':
        return `${paren(this.type(s.item!, indent))}[]`;
      case 'tuple':
      case 'strict_tuple':
      case 'loose_tuple':
        return `[${(s.items ?? []).map((i) => this.type(i, indent)).join(', ')}]`;
      case 'record':
        return `Record<${this.type(s.key!, indent)}, ${this.type(s.value!, indent)}>`;
      case 'union':
      case 'variant':
        return union((s.options as SchemaNode[]).map((o) => this.type(o, indent)));
      case 'intersect':
        return (s.options as SchemaNode[]).map((o) => paren(this.type(o, indent))).join(' & ');
      case 'lazy':
        return 'unknown';
      case 'object':
      case 'strict_object':
      case 'loose_object':
      case 'object_with_rest': {
        const inner = indent + '  ';
        const lines = Object.entries(s.entries ?? {}).map(([key, entry]) => {
          const optional = OPTIONAL_TYPES.has(entry.type) ? '?' : '';
          const name = IDENT.test(key) ? key : JSON.stringify(key);
          return `${inner}${name}${optional}: ${this.type(entry, inner)};`;
        });
        if (s.type === 'loose_object') lines.push(`${inner}[key: string]: unknown;`);
        if (s.type === 'object_with_rest' && s.rest) lines.push(`${inner}[key: string]: unknown;`);
        return lines.length ? `{\n${lines.join('\n')}\n${indent}}` : 'Record<string, never>';
      }
      default:
        throw new Error(`gen-routes: no TypeScript for valibot schema type '${s.type}'`);
    }
  }
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  if (unique.includes('unknown')) return 'unknown';
  return unique.length ? unique.join(' | ') : 'never';
}

function paren(type: string): string {
  return /^[A-Za-z0-9_$<>, "]+$/.test(type) && !type.includes(' | ') ? type : `(${type})`;
}

/** The `:name` parameters of a Koa path template, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}

/** The generated file's text for `operations` (pure: the test compares it with the file). */
export function routesSource(operations: readonly AnyOperation[]): string {
  const input = new TypeWriter('In');
  const output = new TypeWriter('Out');
  const table: string[] = [];
  const types: string[] = [];
  for (const op of [...operations].sort((a, b) => a.id.localeCompare(b.id))) {
    table.push(`  ${JSON.stringify(op.id)}: { method: ${JSON.stringify(op.method)}, path: ${JSON.stringify(op.path)} },`);
    const parts: string[] = [];
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = op.input[part] as SchemaNode | undefined;
      if (!schema) continue;
      const optional = part === 'params' ? '' : allOptional(schema) ? '?' : '';
      parts.push(`      ${part}${optional}: ${input.type(schema, '      ')};`);
    }
    const out = op.output
      ? output.type(op.output as unknown as SchemaNode, '    ')
      : 'any /* the operation declares no output schema yet */';
    types.push(
      `  ${JSON.stringify(op.id)}: {\n    input: {${parts.length ? `\n${parts.join('\n')}\n    ` : ''}};\n    output: ${out};\n  };`,
    );
  }
  const declare = (named: Map<string, string>, side: string) =>
    [...named]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, body]) => `/** A recurring ${side} object. */\nexport type ${name} = ${body};`);
  return [
    '// Generated by scripts/gen-routes.ts from core/operations/registry.ts. Do not edit:',
    '// run `npm run gen:routes` (CI fails when this file is stale).',
    '/* eslint-disable */',
    '',
    '/** Every API operation: HTTP method and path template under `/api/v1` (`:name` parameters). */',
    'export const ROUTES = {',
    ...table,
    '} as const;',
    '',
    '/** An operation id, e.g. `users.getCurrent`. */',
    'export type OperationId = keyof typeof ROUTES;',
    '',
    ...declare(input.named, 'input'),
    '',
    ...declare(output.named, 'output'),
    '',
    "/** Each operation's input (as the server accepts it) and success output (as it goes on the wire). */",
    'export interface Operations {',
    ...types,
    '}',
    '',
  ].join('\n');
}

/** Whether every field of an object schema may be left out (so the whole part may be). */
function allOptional(schema: SchemaNode): boolean {
  if (OPTIONAL_TYPES.has(schema.type)) return true;
  if (!schema.entries) return false;
  return Object.values(schema.entries).every((e) => OPTIONAL_TYPES.has(e.type));
}

async function main(): Promise<void> {
  const { operations } = await import('../core/operations/registry.ts');
  const text = routesSource(operations);
  const current = existsSync(ROUTES_FILE) ? readFileSync(ROUTES_FILE, 'utf8') : null;
  if (process.argv.includes('--check')) {
    if (current !== text) {
      console.error('sdk/generated/routes.ts is stale: run `npm run gen:routes`');
      process.exit(1);
    }
    return;
  }
  if (current === text) return;
  mkdirSync(dirname(ROUTES_FILE), { recursive: true });
  writeFileSync(ROUTES_FILE, text);
  console.error(`wrote ${ROUTES_FILE}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
