/** Client-side checks the dashboard runs as you type: the server's own rules (core/validation.ts). */
import { METADATA_MAX_DEPTH, METADATA_MAX_LENGTH, isNestedAtMost } from '../../core/validation.ts';
export { isValidEmail, isValidDomainUrl, isProductionSafeDomainUrl } from '../../core/validation.ts';

/** A trusted domain's handler path must start with `/` ("Handler path must start with /"). */
export function handlerPathProblem(path: string): string | null {
  return path.startsWith('/') ? null : 'Handler path must start with /';
}

/** Parses a JSON editor's text; null text means "no value". Returns the value or a readable error. */
export function parseJsonField(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (text.trim() === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: `Not valid JSON: ${(e as Error).message}` };
  }
}

/**
 * Parses a metadata editor's text (`client_metadata`, `client_read_only_metadata`,
 * `server_metadata`): valid JSON within the server's bounds (core/lib/metadata-limits.ts), so
 * the editor says what is wrong before Save instead of after a refused request.
 */
export function parseMetadataField(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (text.length > METADATA_MAX_LENGTH * 2)
    return { ok: false, error: `Too long: metadata is at most ${METADATA_MAX_LENGTH.toLocaleString('en')} characters of JSON.` };
  const parsed = parseJsonField(text);
  if (!parsed.ok) return parsed;
  if (!isNestedAtMost(parsed.value, METADATA_MAX_DEPTH))
    return { ok: false, error: `Too deep: metadata nests at most ${METADATA_MAX_DEPTH} levels.` };
  const length = JSON.stringify(parsed.value ?? null).length;
  if (length > METADATA_MAX_LENGTH)
    return {
      ok: false,
      error: `Too long: ${length.toLocaleString('en')} characters of JSON; metadata is at most ${METADATA_MAX_LENGTH.toLocaleString('en')}.`,
    };
  return parsed;
}
