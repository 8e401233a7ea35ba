import { useEffect, useId, useState } from 'react';
import { useApp } from '../../sdk/react.tsx';
import { AuthCard, FormError, MessageError, Spinner, Success, queryParam, useAction, withLocale, type PageProps } from '../common.tsx';
import { useT, type MessageKey } from '../i18n/index.tsx';

/** A price as validate-code answers it: amounts per currency, and an interval for subscriptions. */
type WirePrice = Record<string, unknown> & { interval?: [number, string] };

/** What `POST /payments/purchases/validate-code` answers (upstream's shape). */
interface PurchaseInfo {
  product: {
    display_name: string;
    stackable: boolean;
    prices: Record<string, WirePrice>;
    included_items: Record<string, { quantity: number }>;
  };
  already_bought_non_stackable: boolean;
  conflicting_products: Array<{ product_id: string; display_name: string }>;
  test_mode: boolean;
  charges_enabled: boolean;
}

const UNITS: Record<string, MessageKey> = {
  day: 'purchase.unit.day',
  week: 'purchase.unit.week',
  month: 'purchase.unit.month',
  year: 'purchase.unit.year',
};

/** `9.99 USD`, or `9.99 USD every 1 month(s)`. */
function usePriceLabel() {
  const t = useT();
  return (price: WirePrice) => {
    const amounts = Object.entries(price)
      .filter(([k, v]) => /^[A-Z]{3}$/.test(k) && typeof v === 'string')
      .map(([k, v]) => `${v as string} ${k}`)
      .join(' / ');
    if (!price.interval) return amounts;
    const [count, unit] = price.interval;
    return t('purchase.every', { amount: amounts, interval: `${count} ${t(UNITS[unit] ?? 'purchase.unit.month')}` });
  };
}

function PurchaseBody(props: { code: string; returnUrl: string | null }) {
  const app = useApp();
  const t = useT();
  const priceLabel = usePriceLabel();
  const quantityId = useId();
  const [info, setInfo] = useState<PurchaseInfo | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [priceId, setPriceId] = useState<string>('');
  const [quantity, setQuantity] = useState(1);
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction();
  useEffect(() => {
    if (!props.code) return;
    app.core
      .op('payments.validateCode', { body: { full_code: props.code, ...(props.returnUrl ? { return_url: props.returnUrl } : {}) } })
      .then((r) => {
        setInfo(r);
        setPriceId(Object.keys(r.product.prices)[0] ?? '');
      }, setLoadError);
  }, [app, props.code, props.returnUrl]);
  if (!props.code) return <FormError error={new MessageError('purchase.missingCode')} />;
  if (loadError) return <FormError error={loadError} />;
  if (!info) return <Spinner label={t('purchase.loading')} />;
  const back = props.returnUrl ?? app.urls.home;
  if (done)
    return (
      <>
        <Success>{t('purchase.done')}</Success>
        <p>
          <a href={back}>{t('purchase.continue')}</a>
        </p>
      </>
    );
  const prices = Object.entries(info.product.prices);
  const items = Object.entries(info.product.included_items).filter(([, inc]) => inc.quantity > 0);
  const body = { full_code: props.code, price_id: priceId, quantity };
  return (
    <div data-testid="purchase">
      <h2 className="gh-product" data-testid="product-name">
        {info.product.display_name}
      </h2>
      {info.test_mode ? (
        <p className="gh-muted" role="note" data-testid="test-mode">
          {t('purchase.testMode')}
        </p>
      ) : null}
      <fieldset className="gh-field">
        <legend>{t('purchase.price')}</legend>
        {prices.map(([id, price]) => (
          <label key={id} className="gh-row">
            <input type="radio" name="price" value={id} checked={priceId === id} onChange={() => setPriceId(id)} />
            <span data-testid={`price-${id}`}>{priceLabel(price)}</span>
          </label>
        ))}
      </fieldset>
      {items.length ? (
        <div>
          <p>{t('purchase.includes')}</p>
          <ul data-testid="included-items">
            {items.map(([id, inc]) => (
              <li key={id}>
                {inc.quantity} × {id}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {info.product.stackable ? (
        <div className="gh-field">
          <label htmlFor={quantityId}>{t('purchase.quantity')}</label>
          <input
            id={quantityId}
            className="gh-input"
            type="number"
            min={1}
            value={quantity}
            onChange={(e) => setQuantity(Math.max(1, Math.floor(Number((e.target as HTMLInputElement).value)) || 1))}
          />
        </div>
      ) : null}
      {info.conflicting_products.length ? (
        <p className="gh-muted">{t('purchase.replaces', { products: info.conflicting_products.map((p) => p.display_name).join(', ') })}</p>
      ) : null}
      <FormError error={error} />
      {info.already_bought_non_stackable ? (
        <p>{t('purchase.owned')}</p>
      ) : info.test_mode ? (
        <button
          type="button"
          className="gh-btn gh-primary"
          disabled={busy || !priceId}
          onClick={() =>
            run(async () => {
              await app.core.op('payments.testModePurchase', { body });
              setDone(true);
            })
          }
        >
          {t('purchase.completeTest')}
        </button>
      ) : info.charges_enabled ? (
        <button
          type="button"
          className="gh-btn gh-primary"
          disabled={busy || !priceId}
          onClick={() =>
            run(async () => {
              const session = await app.core.op('payments.purchaseSession', { body });
              if (session.checkout_url) window.location.assign(session.checkout_url);
            })
          }
        >
          {t('purchase.pay')}
        </button>
      ) : (
        <p>{t('purchase.notSetUp')}</p>
      )}
    </div>
  );
}

function PurchasePageInner(props: PageProps & { code?: string }) {
  const t = useT();
  const returnedFromStripe = queryParam('status') === 'success';
  return (
    <AuthCard title={t('purchase.title')} fullPage={props.fullPage}>
      {returnedFromStripe ? (
        <Success>{t('purchase.processing')}</Success>
      ) : (
        <PurchaseBody code={props.code ?? queryParam('code') ?? ''} returnUrl={queryParam('return_url')} />
      )}
    </AuthCard>
  );
}

/**
 * The hosted purchase page (`…/handler/purchase/<code>`, what create-purchase-url links to; or
 * `…/handler/purchase?code=…`):
 * shows the product of the purchase code with its configured prices and included items, then
 * completes a test-mode purchase, or starts Stripe Checkout. Prices shown and charged come from
 * the server; the page only picks a price id and a quantity.
 */
export const PurchasePage = withLocale(PurchasePageInner);
