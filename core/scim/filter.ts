import { ScimError } from './protocol.ts';

/** Longest accepted `filter` parameter. */
const MAX_FILTER = 512;

/** A parsed filter: one attribute compared for equality (RFC 7644 §3.4.2.2, `eq` only). */
export interface EqFilter {
  /** Lowercase attribute path, e.g. `username`, `externalid`, `displayname`, `emails.value`. */
  attribute: string;
  value: string;
}

/**
 * Parses the one filter form SCIM clients use to look a resource up before creating it:
 * `<attribute> eq "<value>"` (RFC 7644 §3.4.2.2; attribute names are case-insensitive, the value
 * a JSON string). `allowed` lists the attributes (lowercase) that may be filtered on. Anything
 * else is a 400 `invalidFilter`.
 */
export function parseEqFilter(text: string, allowed: readonly string[]): EqFilter {
  if (text.length > MAX_FILTER) throw new ScimError(400, `filter must be at most ${MAX_FILTER} characters.`, 'invalidFilter');
  const match = /^\s*([A-Za-z][A-Za-z0-9.:_-]*)\s+eq\s+("(?:[^"\\]|\\.)*")\s*$/i.exec(text);
  if (!match) throw new ScimError(400, 'Only filters of the form attribute eq "value" are supported.', 'invalidFilter');
  const attribute = match[1]!.toLowerCase().replace(/^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/, '');
  if (!allowed.includes(attribute)) {
    throw new ScimError(400, `Filtering on ${match[1]} is not supported; use one of ${allowed.join(', ')}.`, 'invalidFilter');
  }
  let value: unknown;
  try {
    value = JSON.parse(match[2]!);
  } catch {
    throw new ScimError(400, 'The filter value is not a valid string.', 'invalidFilter');
  }
  return { attribute, value: value as string };
}

/** `startIndex` and `count` of a list request (RFC 7644 §3.4.2.4): 1-based, count capped at `max`. */
export function pageOf(query: Record<string, string>, max: number): { startIndex: number; count: number } {
  const number = (name: string, fallback: number) => {
    const text = query[name];
    if (text === undefined || text === '') return fallback;
    if (!/^-?\d{1,9}$/.test(text)) throw new ScimError(400, `${name} must be an integer.`, 'invalidValue');
    return Number(text);
  };
  return { startIndex: Math.max(1, number('startIndex', 1)), count: Math.min(max, Math.max(0, number('count', 100))) };
}
