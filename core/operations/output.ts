import * as v from 'valibot';

/**
 * Building blocks for the output schemas operations declare (`output` in define.ts), and the
 * check strict mode runs on every answer (`outputProblem`). An output schema describes the JSON
 * body of the success answer as it goes on the wire (after JSON serialization): the OpenAPI
 * document and `sdk/generated/routes.ts` are generated from it (scripts/gen-api.ts), and in
 * strict test mode an answer that does not match it is a 500, so the reference cannot drift
 * from behaviour.
 *
 * Objects that recur (a user, a team, a session, an API key, a project …) are defined once, in
 * the domain that owns them, with `component(name, schema)`: the name becomes a shared
 * `components.schemas` entry of the OpenAPI document and a named type in the generated routes.
 */

/** Names a recurring output object; the generators emit it once and refer to it by name. */
export function component<S extends v.GenericSchema>(name: string, schema: S) {
  return v.pipe(schema, v.title(name));
}

/** `{success: true}`: the body of an operation whose run returns nothing. */
export const SuccessOutput = component('Success', v.strictObject({ success: v.literal(true) }));

/** Any JSON value: metadata, free-form config fields. */
export const JsonOutput = v.unknown();

/** Epoch milliseconds. */
export const MillisOutput = v.pipe(v.number(), v.integer());

/** `string | null`. */
export const NullableString = v.nullable(v.string());

/**
 * The unpaginated list envelope `{items, is_paginated: false}`; most lists are this one.
 */
export function listOutput<S extends v.GenericSchema>(item: S) {
  return v.strictObject({ items: v.array(item), is_paginated: v.literal(false) });
}

/**
 * A list that may be paginated: `{items, is_paginated: false}` without paging parameters, or
 * `{items, is_paginated: true, pagination: {next_cursor}}` (null on the last page).
 */
export function pagedListOutput<S extends v.GenericSchema>(item: S) {
  return v.union([
    listOutput(item),
    v.strictObject({ items: v.array(item), is_paginated: v.literal(true), pagination: v.strictObject({ next_cursor: NullableString }) }),
  ]);
}

/** Media-type marker for answers that are not JSON (read by the generators and the check). */
type RawKind = 'text' | 'html' | 'redirect' | 'ndjson';

/** A plain-text answer (`text/plain`), e.g. the API root's greeting. */
export const TextOutput = v.pipe(v.string(), v.metadata({ raw: 'text' as RawKind }));

/** An HTML page (`text/html`), e.g. the development OAuth provider's sign-in form. */
export const HtmlOutput = v.pipe(v.string(), v.metadata({ raw: 'html' as RawKind }));

/** A redirect (a 3xx answer naming its target); the body is empty. */
export const RedirectOutput = v.pipe(v.string(), v.metadata({ raw: 'redirect' as RawKind }));

/** Newline-delimited JSON (`application/x-ndjson`), streamed; not checked line by line in strict mode. */
export const NdjsonOutput = v.pipe(v.string(), v.metadata({ raw: 'ndjson' as RawKind }));

/** The non-JSON kind of an output schema, or null for JSON. */
export function rawKindOf(schema: v.GenericSchema | v.GenericSchemaAsync): RawKind | null {
  const pipe = (schema as { pipe?: Array<{ type?: string; metadata?: { raw?: RawKind } }> }).pipe;
  const meta = pipe?.find((action) => action.type === 'metadata' && action.metadata?.raw);
  return meta?.metadata?.raw ?? null;
}

/** What strict mode compares with the schema: the wire JSON, or a raw reply's text. */
export type WireAnswer =
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; value: string }
  | { kind: 'html'; value: string }
  | { kind: 'redirect'; value: string };

/**
 * Checks one success answer against the operation's declared output; returns a message naming
 * every mismatch (path: problem), or null when it matches. An operation that declares a union of
 * JSON and a raw kind (e.g. a JSON body or a redirect) passes with either.
 */
export function outputProblem(opId: string, schema: v.GenericSchema, answer: WireAnswer): string | null {
  const kind = rawKindOf(schema);
  if (answer.kind !== 'json') {
    if (kind === answer.kind || hasRawOption(schema, answer.kind)) return null;
    return `Operation ${opId} answered ${answer.kind}, but its output schema declares ${kind ?? 'JSON'}`;
  }
  const result = v.safeParse(schema, answer.value);
  if (result.success) return null;
  const lines = result.issues.slice(0, 20).map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
  return `Operation ${opId} answered a body that does not match its output schema:\n  ${lines.join('\n  ')}`;
}

function hasRawOption(schema: v.GenericSchema, kind: RawKind): boolean {
  const options = (schema as { options?: v.GenericSchema[] }).options;
  return Array.isArray(options) && options.some((o) => rawKindOf(o) === kind);
}
