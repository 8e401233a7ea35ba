/** Payments fixtures shared by HTTP tests (./payments.ts) and in-process core tests: plain data, no transport. */

/** A plan line (monthly pro / team-pro), a stackable credit pack and a server-only product. */
export const PAYMENTS_CONFIG = {
  'payments.items.credits': { displayName: 'Credits', customerType: 'user' },
  'payments.productLines.plans': { displayName: 'Plans', customerType: 'user' },
  'payments.products.pro': {
    displayName: 'Pro',
    customerType: 'user',
    productLineId: 'plans',
    prices: { monthly: { USD: '9.99', interval: [1, 'month'] } },
    includedItems: { credits: { quantity: 100, expires: 'when-purchase-expires' } },
  },
  'payments.products.max': {
    displayName: 'Max',
    customerType: 'user',
    productLineId: 'plans',
    prices: { monthly: { USD: '29.00', interval: [1, 'month'] } },
    includedItems: { credits: { quantity: 500, expires: 'when-purchase-expires' } },
  },
  'payments.products.pack': {
    displayName: 'Credit pack',
    customerType: 'user',
    stackable: true,
    prices: { once: { USD: '4.00' } },
    includedItems: { credits: { quantity: 50 } },
  },
  'payments.products.secret': {
    displayName: 'Internal',
    customerType: 'user',
    serverOnly: true,
    prices: { once: { USD: '1.00' } },
    includedItems: {},
  },
};

/** The full purchase code of a purchase URL, read as upstream's e2e tests read it. */
export const codeOf = (url: string) => /\/purchase\/([a-z0-9-_]+)/.exec(url)![1]!;
