import * as v from 'valibot';
import { KnownError } from '../errors/index.ts';

/** Any valibot schema (sync or async). */
export type AnySchema = v.GenericSchema | v.GenericSchemaAsync;

type SchemaNode = {
  type?: string;
  entries?: Record<string, SchemaNode>;
  wrapped?: SchemaNode;
  item?: SchemaNode;
  options?: SchemaNode[];
  value?: SchemaNode;
  key?: string;
  literal?: unknown;
};

/**
 * Lists every key of `input` that `schema` does not declare, at any depth, as dotted paths
 * (`body.config.extra`). valibot's `strictObject` stops at the first unknown key; the wire
 * protocol names them all (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/known-errors.tsx).
 */
export function findUnknownKeys(
  schema: SchemaNode,
  input: unknown,
  path: string,
  out: Map<string, string[]> = new Map(),
): Map<string, string[]> {
  if (input === null || input === undefined) return out;
  const node = unwrap(schema);
  if (!node) return out;
  if (['strict_object', 'object', 'loose_object'].includes(node.type ?? '') && Array.isArray(input)) {
    out.set(path, [ARRAY_MARKER]);
  } else if (node.type === 'strict_object' && node.entries && typeof input === 'object') {
    for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
      const child = node.entries[key];
      if (!child) {
        const list = out.get(path) ?? [];
        list.push(key);
        out.set(path, list);
      } else {
        findUnknownKeys(child, value, `${path}.${key}`, out);
      }
    }
  } else if (node.type === 'array' && node.item && Array.isArray(input)) {
    input.forEach((item, i) => findUnknownKeys(node.item!, item, `${path}[${i}]`, out));
  } else if (node.type === 'variant' && node.options && node.key && typeof input === 'object' && !Array.isArray(input)) {
    // A discriminated union: descend into the option its discriminator selects (issue 14 item 13:
    // `email_config: {type: "shared", client_id}` must name `client_id`, not crash).
    const tag = (input as Record<string, unknown>)[node.key];
    const chosen = node.options.map(unwrap).find((o) => unwrap(o?.entries?.[node.key!])?.literal === tag);
    if (chosen) findUnknownKeys(chosen, input, path, out);
  } else if ((node.type === 'union' || node.type === 'variant') && node.options) {
    // Only descend when exactly one option is an object schema that fits; otherwise the union's
    // own issue reports the problem.
    const objects = node.options.map(unwrap).filter((o) => o?.type === 'strict_object');
    if (objects.length === 1) findUnknownKeys(objects[0]!, input, path, out);
  }
  return out;
}

const ARRAY_MARKER = '\u0000array';

function unwrap(schema: SchemaNode | undefined): SchemaNode | undefined {
  let s = schema;
  while (s && s.wrapped) s = s.wrapped;
  return s;
}

const typeNames: Record<string, string> = {
  string: 'string',
  number: 'number',
  boolean: 'boolean',
  array: 'array',
  object: 'object',
  strict_object: 'object',
  loose_object: 'object',
  integer: 'number',
  picklist: 'one of the allowed values',
};

function issuePath(root: string, issue: v.BaseIssue<unknown>): string {
  let p = root;
  for (const item of issue.path ?? []) {
    p += typeof item.key === 'number' ? `[${item.key}]` : `.${String(item.key)}`;
  }
  return p;
}

function describeIssue(root: string, issue: v.BaseIssue<unknown>): string {
  const path = issuePath(root, issue);
  if (issue.received === 'undefined' && issue.kind === 'schema') return `${path} must be defined`;
  if (issue.kind === 'schema' && typeNames[issue.type]) {
    // valibot writes `("a" | "b")`; upstream's yup `oneOf` lists `a, b` (no quotes, no parentheses).
    if (issue.type === 'picklist')
      return `${path} must be one of the following values: ${issue.expected
        ?.replace(/^\((.*)\)$/, '$1')
        .replaceAll('"', '')
        .split(' | ')
        .join(', ')}`;
    return `${path} must be a \`${typeNames[issue.type]}\` type, but the final value was: \`${issue.received}\`.`;
  }
  // valibot's default number-bound messages, in yup's words as upstream answers them.
  if (issue.message.startsWith('Invalid ') && typeof issue.requirement === 'number' && typeof issue.input === 'number') {
    if (issue.type === 'max_value') return `${path} must be less than or equal to ${issue.requirement}`;
    if (issue.type === 'min_value') return `${path} must be greater than or equal to ${issue.requirement}`;
  }
  // Our own pipe messages are written to follow the path ("must be a valid email").
  if (/^[a-z]/.test(issue.message)) return `${path} ${issue.message}`;
  return `${path}: ${issue.message}`;
}

/**
 * Validates one request part against its schema. Collects every problem (unknown keys included)
 * into one SCHEMA_ERROR whose message lists them line by line, after the header
 * `Request validation failed on <METHOD> <pathname>:` (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/known-errors.tsx).
 */
export async function validatePart<T>(schema: AnySchema, input: unknown, root: string): Promise<{ value?: T; problems: string[] }> {
  const problems: string[] = [];
  // valibot's object schemas accept arrays (typeof [] === 'object'); the wire protocol does not.
  let arrayForObject = false;
  for (const [path, keys] of findUnknownKeys(schema as SchemaNode, input, root)) {
    if (keys[0] === ARRAY_MARKER) {
      arrayForObject = true;
      problems.push(`${path} must be a \`object\` type, but the final value was: an array.`);
    } else {
      problems.push(`${path} contains unknown properties: ${keys.join(', ')}`);
    }
  }
  if (arrayForObject) return { problems };
  const result = await v.safeParseAsync(schema, input, { abortEarly: false });
  if (result.success) return { value: result.output as T, problems };
  const reported = problems.length;
  for (const issue of result.issues) {
    if (issue.type === 'strict_object' && issue.expected === 'never') continue; // reported above
    problems.push(describeIssue(root, issue));
  }
  // A failed parse must never pass as valid: if the only issues were unknown keys the walk above
  // could not place (inside unions), name them from valibot's own issues.
  if (problems.length === 0 && reported === 0) {
    for (const issue of result.issues) {
      const key = issue.path?.at(-1)?.key;
      const parent = issuePath(root, { ...issue, path: issue.path?.slice(0, -1) as typeof issue.path });
      problems.push(`${parent} contains unknown properties: ${String(key)}`);
    }
  }
  return { problems: [...new Set(problems)] };
}

/** Builds the SCHEMA_ERROR for a list of problem lines. */
export function schemaError(method: string, pathname: string, problems: string[]): KnownError {
  const message = `Request validation failed on ${method} ${pathname}:\n${problems.map((p) => `  - ${p}`).join('\n')}`;
  return new KnownError('SCHEMA_ERROR', { message });
}
