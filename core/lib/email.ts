/**
 * Email rules (upstream packages/stack-shared/src/schema-fields.ts): valid, max 256, local part without a leading dot or a double
 * dot, domain ending in a part of at least two characters. Normalization is trim + lowercase
 * (upstream apps/backend/src/app/api/latest/users/), applied on create and lookup.
 */
export function isValidEmail(value: string): boolean {
  if (value.length > 256 || /\s/.test(value)) return false;
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.startsWith('.') || local.includes('..') || !/^[^@"(),:;<>[\\\]]+$/.test(local)) return false;
  if (!/^[a-zA-Z0-9.-]+$/.test(domain) || domain.includes('..') || domain.startsWith('.') || domain.startsWith('-')) return false;
  const tld = domain.split('.').pop() ?? '';
  return domain.includes('.') && tld.length >= 2;
}

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}
