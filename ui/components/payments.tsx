import { useEffect, useState } from 'react';
import { useApp, useUser } from '../../sdk/react.tsx';
import type { User } from '../../sdk/user.ts';
import { FormError, Root, Spinner, Success, useAction, withLocale, type PageProps } from '../common.tsx';
import { useT } from '../i18n/index.tsx';

/** A product the customer owns, as `GET /payments/products/{customer_type}/{customer_id}` answers it. */
interface OwnedProduct {
  id: string | null;
  quantity: number;
  type: 'one_time' | 'subscription';
  product: { display_name: string };
  subscription: {
    subscription_id: string | null;
    current_period_end: string | null;
    cancel_at_period_end: boolean;
    is_cancelable: boolean;
  } | null;
}

/**
 * The account-settings payments section: the user's plans and purchases, each subscription with
 * its renewal date and a Cancel button (`DELETE /payments/products/user/{id}/{product_id}`).
 */
export function PaymentsSettings(props: { user: User }) {
  const app = useApp();
  const t = useT();
  const [items, setItems] = useState<OwnedProduct[] | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  const { busy, error, run } = useAction();
  useEffect(() => {
    app.core
      .op('payments.listCustomerProducts', { params: { customer_type: 'user', customer_id: props.user.id } })
      .then((r) => setItems(r.items), setLoadError);
  }, [app, props.user.id, tick]);
  if (loadError) return <FormError error={loadError} />;
  if (!items) return <Spinner label={t('payments.loading')} />;
  if (items.length === 0) return <p className="gh-muted">{t('payments.none')}</p>;
  return (
    <div>
      <ul className="gh-list" data-testid="owned-products">
        {items.map((p, i) => (
          <li key={`${p.id ?? 'inline'}-${i}`} className="gh-row">
            <span>
              {p.product.display_name}
              {p.quantity > 1 ? ` × ${p.quantity}` : ''}
            </span>
            {p.subscription?.current_period_end ? (
              <span className="gh-muted">
                {t(p.subscription.cancel_at_period_end ? 'payments.endsOn' : 'payments.renewsOn', {
                  date: new Date(p.subscription.current_period_end).toLocaleDateString(t.locale),
                })}
              </span>
            ) : null}
            {p.subscription?.is_cancelable && !p.subscription.cancel_at_period_end && p.id ? (
              <button
                type="button"
                className="gh-btn"
                disabled={busy}
                onClick={() =>
                  run(async () => {
                    await app.core.op('payments.cancelSubscription', {
                      params: { customer_type: 'user', customer_id: props.user.id, product_id: p.id! },
                      query: { subscription_id: p.subscription!.subscription_id },
                    });
                    setTick((n) => n + 1);
                  })
                }
              >
                {t('payments.cancel')}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <FormError error={error} />
    </div>
  );
}

/** One plan of a pricing table: the configured product id and what to show for it. */
export interface PricingPlan {
  productId: string;
  name: string;
  price: string;
  features?: string[];
}

function PricingTableInner(props: PageProps & { plans: PricingPlan[]; returnUrl?: string }) {
  const app = useApp();
  const user = useUser();
  const t = useT();
  const { busy, error, run } = useAction();
  const [sent, setSent] = useState(false);
  return (
    <Root>
      <div className="gh-pricing" data-testid="pricing-table">
        {props.plans.map((plan) => (
          <section key={plan.productId} className="gh-card gh-plan" aria-label={plan.name}>
            <h2>{plan.name}</h2>
            <p className="gh-price">{plan.price}</p>
            {plan.features?.length ? (
              <ul>
                {plan.features.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
            ) : null}
            {user ? (
              <button
                type="button"
                className="gh-btn gh-primary"
                disabled={busy}
                onClick={() =>
                  run(async () => {
                    const r = await app.core.op('payments.createPurchaseUrl', {
                      body: {
                        customer_type: 'user',
                        customer_id: user.id,
                        product_id: plan.productId,
                        ...(props.returnUrl ? { return_url: props.returnUrl } : {}),
                      },
                    });
                    setSent(true);
                    window.location.assign(r.url);
                  })
                }
              >
                {t('payments.choose')}
              </button>
            ) : (
              <a className="gh-btn" href={app.signInUrlWithReturn()}>
                {t('payments.signInToBuy')}
              </a>
            )}
          </section>
        ))}
      </div>
      {sent ? <Success>{t('payments.redirecting')}</Success> : null}
      <FormError error={error} />
    </Root>
  );
}

/**
 * A pricing table: one card per plan (products configured under `payments.products`); choosing
 * one sends the signed-in user to the hosted purchase page (create-purchase-url). Prices shown are
 * the app's text; what is charged always comes from the server's configuration.
 */
export const PricingTable = withLocale(PricingTableInner);
