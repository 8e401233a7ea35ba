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

/**
 * Upstream's `emailSchema` (yup's `string().email()`, the WHATWG "valid e-mail address" syntax),
 * which Stack Auth's server accepts for stored addresses: a user's `primary_email`, contact-channel
 * values and team-invitation recipients. It admits legacy addresses the sign-up rule above refuses
 * (`a@localhost`, `a.@example.com`, `a..b@example.com`); sign-up, sign-in and OTP keep the strict
 * rule, as upstream's `signInEmailSchema` does. Max 256 (upstream packages/stack-shared/src/schema-fields.ts).
 */
const WHATWG_EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
export function isValidLegacyEmail(value: string): boolean {
  return value.length <= 256 && WHATWG_EMAIL.test(value);
}

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}
