/** Client-side checks the dashboard runs as you type: the server's own rules (core/validation.ts). */
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
