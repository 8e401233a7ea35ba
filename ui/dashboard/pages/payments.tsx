import { useState } from 'react';
import type { AdminProject } from '../project.ts';
import {
  Async,
  ConfirmButton,
  CopyButton,
  Empty,
  Field,
  Form,
  Section,
  TableScroll,
  formatTime,
  useApi,
  useLoad,
  CopyValue,
} from '../kit.tsx';

interface AccountInfo {
  account_id: string;
  charges_enabled: boolean;
  secret_key_hint: string;
  webhook_configured: boolean;
  webhook_url: string;
}
interface Entry {
  type: string;
  product_id?: string | null;
  product?: { display_name: string };
  charged_amount?: Record<string, string>;
  item_id?: string;
  quantity?: number;
  subscription_id?: string;
  one_time_purchase_id?: string;
}
interface Transaction {
  id: string;
  created_at_millis: number;
  type: string | null;
  customer_type: string;
  customer_id: string;
  entries: Entry[];
  adjusted_by: unknown[];
  test_mode: boolean;
}
type PaymentsConfig = {
  testMode?: boolean;
  items?: Record<string, { displayName?: string; customerType?: string }>;
  products?: Record<
    string,
    {
      displayName?: string;
      customerType?: string;
      productLineId?: string;
      catalogId?: string;
      prices?: Record<string, Record<string, unknown>> | string;
      includedItems?: Record<string, { quantity?: number }>;
    }
  >;
};

/** The Stripe connection: the project's own account, keys entered here and sealed by the server. */
function StripeConnection(props: { project: AdminProject }) {
  const admin = useApi().admin(props.project.id);
  const info = useLoad(
    (): Promise<AccountInfo | null> =>
      admin('payments.stripeAccountInfo').catch((e: unknown) => {
        if ((e as { code?: string })?.code === 'STRIPE_ACCOUNT_INFO_NOT_FOUND') return null;
        throw e;
      }),
    [props.project.id],
  );
  const [secretKey, setSecretKey] = useState('');
  const [webhookSecret, setWebhookSecret] = useState('');
  return (
    <Section title="Stripe connection" description="Payments use your own Stripe account. Keys are stored encrypted and never shown again.">
      <Async state={info} label="Loading Stripe account…">
        {(account) => (
          <>
            {account ? (
              <dl className="d-facts" data-testid="stripe-account">
                <dt>Account</dt>
                <dd>
                  <CopyValue value={account.account_id} label="Stripe account id" />
                </dd>
                <dt>Secret key</dt>
                <dd>
                  <code>{account.secret_key_hint}</code>
                </dd>
                <dt>Charges</dt>
                <dd>{account.charges_enabled ? 'enabled' : 'not enabled yet'}</dd>
                <dt>Webhook endpoint</dt>
                <dd>
                  <code>{account.webhook_url}</code> <CopyButton text={account.webhook_url} />{' '}
                  {account.webhook_configured ? '(signing secret set)' : '(add its signing secret below)'}
                </dd>
              </dl>
            ) : (
              <Empty>No Stripe account connected. Purchases can still be completed in test mode.</Empty>
            )}
            <Form
              label="Stripe keys"
              submit={account ? 'Update keys' : 'Connect Stripe'}
              busyLabel="Checking with Stripe…"
              disabled={!secretKey}
              onSubmit={() =>
                admin('payments.setStripeKeys', {
                  body: { secret_key: secretKey, ...(webhookSecret ? { webhook_secret: webhookSecret } : {}) },
                })
              }
              onDone={() => {
                setSecretKey('');
                setWebhookSecret('');
                info.reload();
              }}
            >
              <Field
                label="Secret key"
                name="secret_key"
                type="password"
                value={secretKey}
                onChange={setSecretKey}
                placeholder="sk_live_… or sk_test_…"
                autoComplete="off"
              />
              <Field
                label="Webhook signing secret"
                name="webhook_secret"
                type="password"
                value={webhookSecret}
                onChange={setWebhookSecret}
                placeholder="whsec_…"
                autoComplete="off"
                hint="From the Stripe webhook endpoint pointed at the URL above."
              />
            </Form>
            {account ? (
              <ConfirmButton
                label="Disconnect Stripe"
                question="Forget the Stripe keys of this project?"
                danger
                onConfirm={async () => {
                  await admin('payments.deleteStripeKeys');
                  info.reload();
                }}
              />
            ) : null}
          </>
        )}
      </Async>
    </Section>
  );
}

function priceText(prices: unknown): string {
  if (prices === 'include-by-default') return 'included by default';
  return (
    Object.entries((prices ?? {}) as Record<string, Record<string, unknown>>)
      .map(([id, p]) => {
        const amounts = Object.entries(p)
          .filter(([k]) => /^[A-Z]{3}$/.test(k))
          .map(([k, v]) => `${String(v)} ${k}`)
          .join(' / ');
        const interval = Array.isArray(p.interval) ? ` every ${String(p.interval[0])} ${String(p.interval[1])}` : '';
        return `${id}: ${amounts}${interval}`;
      })
      .join('; ') || '—'
  );
}

/** Products and items as configured (`payments.*` in Configuration). */
function Products(props: { project: AdminProject }) {
  const admin = useApi().admin(props.project.id);
  const config = useLoad(
    () => admin('config.get').then((r) => (JSON.parse(r.config_string) as { payments: PaymentsConfig }).payments),
    [props.project.id],
  );
  return (
    <Section
      title="Products"
      description={
        <>
          Define products and items in Configuration, e.g. <code>"payments.products.pro"</code> and <code>"payments.items.credits"</code>.
        </>
      }
    >
      <Async state={config} label="Loading products…">
        {(payments) => {
          const products = Object.entries(payments.products ?? {});
          const items = Object.entries(payments.items ?? {});
          return (
            <>
              <p className="d-muted" data-testid="payments-mode">
                {payments.testMode === false
                  ? 'Live mode: purchases are paid through Stripe.'
                  : payments.testMode === true
                    ? 'Test mode: purchases complete without payment.'
                    : 'Test mode until a Stripe account is connected, then live (set payments.testMode to choose).'}
              </p>
              {products.length === 0 ? (
                <Empty>No products yet.</Empty>
              ) : (
                <TableScroll label="Products">
                  <table className="d-table" aria-label="Products">
                    <thead>
                      <tr>
                        <th>Id</th>
                        <th>Name</th>
                        <th>Customer</th>
                        <th>Line</th>
                        <th>Prices</th>
                        <th>Includes</th>
                      </tr>
                    </thead>
                    <tbody>
                      {products.map(([id, p]) => (
                        <tr key={id}>
                          <td>
                            <code>{id}</code>
                          </td>
                          <td>{p.displayName ?? id}</td>
                          <td>{p.customerType ?? 'user'}</td>
                          <td>{p.productLineId ?? p.catalogId ?? '—'}</td>
                          <td>{priceText(p.prices)}</td>
                          <td>
                            {Object.entries(p.includedItems ?? {})
                              .map(([i, inc]) => `${inc.quantity ?? 0} × ${i}`)
                              .join(', ') || '—'}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              )}
              {items.length ? (
                <TableScroll label="Items">
                  <table className="d-table" aria-label="Items">
                    <thead>
                      <tr>
                        <th>Item</th>
                        <th>Name</th>
                        <th>Customer</th>
                      </tr>
                    </thead>
                    <tbody>
                      {items.map(([id, i]) => (
                        <tr key={id}>
                          <td>
                            <code>{id}</code>
                          </td>
                          <td>{i.displayName ?? id}</td>
                          <td>{i.customerType ?? 'user'}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              ) : null}
            </>
          );
        }}
      </Async>
    </Section>
  );
}

const grantOf = (t: Transaction) => t.entries.find((e) => e.type === 'product_grant');
const chargedOf = (t: Transaction) =>
  Object.entries(t.entries.find((e) => e.type === 'money_transfer')?.charged_amount ?? {})
    .map(([c, a]) => `${a} ${c}`)
    .join(', ');

/** Transactions (purchases, refunds, manual item changes) with refunds, and the customers in them. */
function Transactions(props: { project: AdminProject }) {
  const admin = useApi().admin(props.project.id);
  const list = useLoad(
    (): Promise<{ transactions: Transaction[]; next_cursor: string | null }> =>
      admin('payments.listTransactions', { query: { limit: 100 } }),
    [props.project.id],
  );
  return (
    <>
      <Section title="Transactions">
        <Async state={list} label="Loading transactions…">
          {(page) =>
            page.transactions.length === 0 ? (
              <Empty>No transactions yet.</Empty>
            ) : (
              <TableScroll label="Transactions">
                <table className="d-table" aria-label="Transactions">
                  <thead>
                    <tr>
                      <th>When</th>
                      <th>Type</th>
                      <th>Customer</th>
                      <th>Product / item</th>
                      <th>Charged</th>
                      <th />
                    </tr>
                  </thead>
                  <tbody>
                    {page.transactions.map((t) => {
                      const grant = grantOf(t);
                      const refundable = t.type === 'purchase' && !t.test_mode && t.adjusted_by.length === 0 && grant;
                      return (
                        <tr key={t.id} data-testid={`transaction-${t.id}`}>
                          <td>{formatTime(t.created_at_millis)}</td>
                          <td>
                            {t.type}
                            {t.test_mode ? ' (test)' : ''}
                            {t.adjusted_by.length ? ' — refunded' : ''}
                          </td>
                          <td>
                            {t.customer_type} <code>{t.customer_id}</code>
                          </td>
                          <td>
                            {grant
                              ? (grant.product?.display_name ?? grant.product_id)
                              : t.entries
                                  .map((e) => (e.item_id ? `${e.quantity ?? 0} × ${e.item_id}` : ''))
                                  .filter(Boolean)
                                  .join(', ')}
                          </td>
                          <td>{chargedOf(t) || '—'}</td>
                          <td>
                            {refundable ? (
                              <ConfirmButton
                                label="Refund"
                                question="Refund this purchase in full and revoke the product?"
                                danger
                                onConfirm={async () => {
                                  await admin('payments.refundTransaction', {
                                    body: { type: grant.subscription_id ? 'subscription' : 'one-time-purchase', id: t.id },
                                  });
                                  list.reload();
                                }}
                              />
                            ) : null}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </TableScroll>
            )
          }
        </Async>
      </Section>
      <Section title="Customers" description="Customers who bought or received something, with their purchases.">
        <Async state={list} label="Loading customers…">
          {(page) => {
            const customers = new Map<string, { type: string; id: string; products: Set<string> }>();
            for (const t of page.transactions) {
              const key = `${t.customer_type}:${t.customer_id}`;
              const c = customers.get(key) ?? { type: t.customer_type, id: t.customer_id, products: new Set<string>() };
              const g = grantOf(t);
              if (g && t.adjusted_by.length === 0) c.products.add(g.product?.display_name ?? g.product_id ?? 'inline product');
              customers.set(key, c);
            }
            return customers.size === 0 ? (
              <Empty>No customers yet.</Empty>
            ) : (
              <TableScroll label="Customers">
                <table className="d-table" aria-label="Customers">
                  <thead>
                    <tr>
                      <th>Type</th>
                      <th>Customer</th>
                      <th>Products</th>
                    </tr>
                  </thead>
                  <tbody>
                    {[...customers.values()].map((c) => (
                      <tr key={`${c.type}:${c.id}`}>
                        <td>{c.type}</td>
                        <td>
                          <CopyValue value={c.id} label={`customer id ${c.id}`} />
                        </td>
                        <td>{[...c.products].join(', ') || '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            );
          }}
        </Async>
      </Section>
    </>
  );
}

/**
 * Payments: the Stripe connection (the project's own account), products and items as
 * configured, transactions with refunds, and customers.
 */
export function PaymentsPage(props: { project: AdminProject }) {
  return (
    <>
      <div className="d-top">
        <h1>Payments</h1>
      </div>
      <StripeConnection project={props.project} />
      <Products project={props.project} />
      <Transactions project={props.project} />
    </>
  );
}
