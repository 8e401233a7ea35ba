import { MAX_OPERATIONS, objectBody, optionalString, SCHEMA, ScimError } from './protocol.ts';

/** One PATCH operation (RFC 7644 §3.5.2): `op` lowercased, `path` as sent (optional), `value`. */
export interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string | null;
  value: unknown;
}

/**
 * Reads a PatchOp body (RFC 7644 §3.5.2): `schemas` must name the PatchOp message, `Operations`
 * holds 1–100 operations whose `op` is add, replace or remove (any case: Entra ID sends
 * `Replace`). 400 `invalidSyntax` / `invalidValue` otherwise.
 */
export function readPatchBody(body: unknown): PatchOperation[] {
  const b = objectBody(body);
  if (!Array.isArray(b.schemas) || !b.schemas.includes(SCHEMA.patchOp)) {
    throw new ScimError(400, `A PATCH body must list the schema ${SCHEMA.patchOp}.`, 'invalidSyntax');
  }
  const ops = b.Operations ?? b.operations;
  if (!Array.isArray(ops) || ops.length === 0) throw new ScimError(400, 'Operations must be a non-empty array.', 'invalidSyntax');
  if (ops.length > MAX_OPERATIONS) throw new ScimError(400, `At most ${MAX_OPERATIONS} operations per request.`, 'tooMany');
  return ops.map((raw) => {
    const o = objectBody(raw);
    const op = typeof o.op === 'string' ? o.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw new ScimError(400, 'op must be add, replace or remove.', 'invalidSyntax');
    const path = optionalString(o.path, 'path');
    if (op === 'remove' && path === null) throw new ScimError(400, 'A remove operation needs a path.', 'noTarget');
    if (op !== 'remove' && o.value === undefined) throw new ScimError(400, `An ${op} operation needs a value.`, 'invalidValue');
    return { op, path, value: o.value };
  });
}

/**
 * The (path, value) pairs an operation sets: its own path, or, without one, each attribute of
 * its object value (RFC 7644 §3.5.2.1/.3: "the value MUST contain the attributes to be
 * replaced"), nested `name` objects flattened to `name.givenName` etc.
 */
export function assignments(operation: PatchOperation): Array<[string, unknown]> {
  if (operation.path !== null) return [[operation.path, operation.value]];
  const value = objectBody(operation.value);
  const out: Array<[string, unknown]> = [];
  for (const [key, v] of Object.entries(value)) {
    if (key === 'name' && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      for (const [sub, sv] of Object.entries(v)) out.push([`name.${sub}`, sv]);
    } else out.push([key, v]);
  }
  return out;
}
