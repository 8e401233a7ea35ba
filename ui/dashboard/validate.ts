/** Client-side checks the dashboard runs as you type (product-spec §5). */
export { isValidDomainUrl, isProductionSafeDomainUrl } from '../../core/config/domains.ts';

/** Email: valid shape, at most 256 characters, no leading or double dot, TLD of 2+ characters. */
export function isValidEmail(email: string): boolean {
  if (email.length === 0 || email.length > 256) return false;
  const m = /^([^\s@]+)@([^\s@]+\.[^\s@.]{2,})$/.exec(email);
  if (!m) return false;
  const local = m[1]!;
  return !local.startsWith('.') && !local.includes('..');
}

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
