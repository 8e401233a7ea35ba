/**
 * Email rules (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts): valid, max 256, local part without a leading dot or a double
 * dot, domain ending in a part of at least two characters. Normalization (normalizeEmail, below)
 * is applied on create and lookup.
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
 * rule, as upstream's `signInEmailSchema` does. Max 256 (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts).
 */
const WHATWG_EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
export function isValidLegacyEmail(value: string): boolean {
  return value.length <= 256 && WHATWG_EMAIL.test(value);
}

/** Full-width and half-width forms (U+FF01–U+FFEE): the characters the width mapping of RFC 8265 §3.3.1 rule 2 changes. */
const WIDTH_FORMS = /[\uff01-\uffee]/g;

/**
 * The one comparison form of an email address, stored and looked up:
 * trimmed; full-width and half-width forms mapped to their ordinary forms (`ｕｓｅｒ` → `user`:
 * NFKC applied to those characters only, the width mapping of RFC 8265's PRECIS
 * UsernameCaseMapped profile); lowercased, as upstream compares addresses (the whole address:
 * upstream lowercases the local part too); then Unicode NFC, so a composed `é` and `e` + U+0301
 * are one address. Not full NFKC: it would also fold ligatures, superscripts and compatibility
 * letters (`ﬁ` → `fi`, `²` → `2`) that a mailbox may really use differently; RFC 6530/6531
 * internationalized addresses are compared in NFC.
 */
export function normalizeEmail(value: string): string {
  return value
    .trim()
    .replace(WIDTH_FORMS, (c) => c.normalize('NFKC'))
    .toLowerCase()
    .normalize('NFC');
}
