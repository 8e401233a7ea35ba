import { ROUTES, type OperationId, type Operations } from './generated/routes.ts';

export { ROUTES, type OperationId, type Operations };

type Scalar = string | number | boolean | null | undefined;

/** Query values may be given as numbers and booleans; they go on the wire as their string form. */
type LooseQuery<Q> = { [P in keyof Q]?: Q[P] | Scalar };

type Input<K extends OperationId> = Operations[K]['input'];

/**
 * What a call by operation id takes: `params` (the path template's parameters), `query` and
 * `body`, typed from the operation's input schemas (sdk/generated/routes.ts). An operation without
 * a body schema still accepts `body: {}` (the SDK sends an empty JSON object on some DELETEs, as
 * the official SDK does).
 */
export type OperationCallInput<K extends OperationId> = {
  [P in keyof Input<K>]: P extends 'query' ? LooseQuery<Input<K>[P]> : Input<K>[P];
} & ('body' extends keyof Input<K> ? unknown : { body?: Record<string, never> });

/** The success answer of operation `K`, as it goes on the wire. */
export type OperationOutput<K extends OperationId> = Operations[K]['output'];

/** The arguments after the id: the input, optional when nothing in it is required. */
export type OperationArgs<K extends OperationId, Extra = unknown> =
  {} extends OperationCallInput<K> ? [input?: OperationCallInput<K> & Extra] : [input: OperationCallInput<K> & Extra];

/**
 * The path (under `/api/v1`) of operation `id` with `params` filled into its template, each value
 * URI-encoded. Throws when a parameter of the template is missing.
 */
export function routePath(id: OperationId, params: Record<string, string> = {}): string {
  return ROUTES[id].path.replace(/:([A-Za-z0-9_]+)/g, (_all, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`${id}: path parameter ${name} is missing`);
    return encodeURIComponent(value);
  });
}

/** The HTTP method of operation `id`. */
export function routeMethod(id: OperationId): string {
  return ROUTES[id].method;
}
