/**
 * The Stripe payment methods the dashboard offers, by Stripe id, with their display names, in
 * upstream's order (stack-shared `payments/payment-methods.ts`): the only keys
 * `PATCH /internal/payments/method-configs` accepts and the only methods its GET lists.
 */
export const PAYMENT_METHOD_NAMES: Readonly<Record<string, string>> = {
  card: 'Credit/Debit Card',
  cartes_bancaires: 'Cartes Bancaires',
  apple_pay: 'Apple Pay',
  google_pay: 'Google Pay',
  link: 'Link',
  amazon_pay: 'Amazon Pay',
  cashapp: 'Cash App',
  klarna: 'Klarna',
  affirm: 'Affirm',
  afterpay_clearpay: 'Afterpay / Clearpay',
  zip: 'Zip',
  ideal: 'iDEAL',
  bancontact: 'Bancontact',
  eps: 'EPS',
  p24: 'Przelewy24',
  blik: 'BLIK',
  alipay: 'Alipay',
  wechat_pay: 'WeChat Pay',
  sepa_debit: 'SEPA Direct Debit',
  bacs_debit: 'Bacs Direct Debit',
  acss_debit: 'ACSS Debit',
  us_bank_account: 'US Bank Account',
  multibanco: 'Multibanco',
  customer_balance: 'Customer Balance',
};

/** Whether `id` is one of {@link PAYMENT_METHOD_NAMES}. */
export function isKnownPaymentMethod(id: string): boolean {
  return Object.hasOwn(PAYMENT_METHOD_NAMES, id);
}

/** Upstream's `stringCompare`: case-insensitive code-unit order, then the reverse of the exact strings. */
export function nameCompare(a: string, b: string): number {
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return cmp(a.toUpperCase(), b.toUpperCase()) || cmp(b, a);
}
