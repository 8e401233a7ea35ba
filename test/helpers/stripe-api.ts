import { createServer, type IncomingMessage, type Server } from 'node:http';

/** One request the fake Stripe API received: method, path, form fields (bracket keys kept flat). */
export interface StripeCall {
  method: string;
  path: string;
  form: Record<string, string>;
  authorization: string | undefined;
  /** The request's `Idempotency-Key` header, if any. */
  idempotencyKey: string | undefined;
}

/**
 * A loopback HTTP server answering the Stripe API calls Gatehouse's `stripe` client makes, in
 * Stripe's documented shapes (https://docs.stripe.com/api): `GET /v1/account`,
 * `POST /v1/checkout/sessions`, `GET` / `POST` / `DELETE /v1/subscriptions/{id}` (an update charging
 * a card whose last4 is 0002, Stripe's always-declined test card, is refused: 402 card_error), `POST /v1/refunds`,
 * `POST /v1/products`, `GET /v1/customers/{id}/payment_methods` (cards from `paymentMethods`),
 * `POST /v1/customers`, `GET /v1/customers/search` (by `metadata['customerId']`), `POST /v1/customers/{id}`,
 * `POST /v1/setup_intents`, `GET /v1/setup_intents/{id}` (tests complete them in `setupIntents`),
 * `POST /v1/account_sessions`, `GET /v1/payment_method_configurations`,
 * `POST /v1/payment_method_configurations/{id}` (`display_preference.preference` per method).
 * Requests must carry `Authorization: Bearer <secretKey>` (else Stripe's 401 error body). A POST's
 * `Idempotency-Key` is honoured as Stripe does (the first answer replayed; other parameters refused),
 * and `lose.refundAnswers` drops the next refund answers, the refund made all the same (`made` counts what was done).
 * Tests point the client at it with the runtime's `stripeApiOverride` (host, port, protocol).
 */
export async function startStripeApi(options: { secretKey: string; now: () => number }) {
  const calls: StripeCall[] = [];
  const subscriptions = new Map<string, Record<string, unknown>>();
  /** Card payment methods by customer id (`pm_…` objects); tests add them. */
  const paymentMethods = new Map<string, Array<Record<string, unknown>>>();
  const customers = new Map<string, Record<string, unknown>>();
  const setupIntents = new Map<string, Record<string, unknown>>();
  /** Payment method configurations by id: one default configuration of the account to start with. */
  const paymentMethodConfigs = new Map<string, Record<string, unknown>>([['pmc_default', defaultPaymentMethodConfig()]]);
  const metadataOf = (form: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(form)
        .filter(([k]) => k.startsWith('metadata['))
        .map(([k, val]) => [k.slice(9, -1), val]),
    );
  /**
   * Stripe's idempotent requests: a POST whose `Idempotency-Key` was seen answers the first
   * request's answer again without doing anything, or 400 `idempotency_error` when its parameters
   * differ (https://docs.stripe.com/api/idempotent_requests).
   */
  const idempotent = new Map<string, { request: string; status: number; body: unknown }>();
  /** Refunds this fake has made (a replayed request makes none). */
  const made = { refunds: 0 };
  /** How many of the next answers to `POST /v1/refunds` (made or replayed) are lost (the connection drops): a timeout as the client sees it. */
  const lose = { refundAnswers: 0 };
  let n = 0;
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const form = Object.fromEntries(new URLSearchParams(raw));
    const url = new URL(req.url ?? '/', 'http://stripe.test');
    const idempotencyKey = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
    const call: StripeCall = {
      method: req.method ?? 'GET',
      path: url.pathname,
      form,
      authorization: req.headers.authorization,
      idempotencyKey,
    };
    calls.push(call);
    const request = `${req.method} ${url.pathname} ${raw}`;
    const send = (status: number, body: unknown) => {
      if (idempotencyKey !== undefined && req.method === 'POST' && status !== 401 && !idempotent.has(idempotencyKey))
        idempotent.set(idempotencyKey, { request, status, body });
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++n}` });
      res.end(JSON.stringify(body));
    };
    const seen = idempotencyKey !== undefined && req.method === 'POST' ? idempotent.get(idempotencyKey) : undefined;
    if (seen) {
      if (seen.request !== request) {
        res.writeHead(400, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          }),
        );
      }
      if (url.pathname === '/v1/refunds' && lose.refundAnswers > 0) {
        lose.refundAnswers--;
        return req.socket.destroy();
      }
      res.writeHead(seen.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
      return res.end(JSON.stringify(seen.body));
    }
    if (req.headers.authorization !== `Bearer ${options.secretKey}`) {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_****' } });
    }
    const nowSec = Math.floor(options.now() / 1000);
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && url.pathname === '/v1/account') {
      return send(200, {
        id: 'acct_gatehouse_test',
        object: 'account',
        charges_enabled: true,
        details_submitted: true,
        payouts_enabled: true,
        country: 'US',
      });
    }
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const id = `cs_test_${++n}`;
      const subscriptionMode = form.mode === 'subscription';
      if (subscriptionMode) {
        const subId = `sub_test_${n}`;
        const end = nowSec + 30 * 86_400;
        subscriptions.set(subId, {
          id: subId,
          object: 'subscription',
          status: 'active',
          cancel_at_period_end: false,
          metadata: {},
          items: {
            object: 'list',
            data: [{ id: `si_${n}`, object: 'subscription_item', current_period_start: nowSec, current_period_end: end }],
          },
        });
        (call as StripeCall & { subscriptionId?: string }).subscriptionId = subId;
      }
      return send(200, {
        id,
        object: 'checkout.session',
        mode: form.mode,
        status: 'open',
        payment_status: 'unpaid',
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}/pay/${id}`,
        client_secret: null,
        metadata: Object.fromEntries(
          Object.entries(form)
            .filter(([k]) => k.startsWith('metadata['))
            .map(([k, val]) => [k.slice(9, -1), val]),
        ),
      });
    }
    if (sub && req.method === 'GET') {
      const s = subscriptions.get(sub[1]!);
      return s ? send(200, s) : send(404, { error: { type: 'invalid_request_error', message: `No such subscription: '${sub[1]}'` } });
    }
    if (sub && req.method === 'POST') {
      const s = subscriptions.get(sub[1]!);
      if (!s) return send(404, { error: { type: 'invalid_request_error', message: `No such subscription: '${sub[1]}'` } });
      // Stripe's test card 4000 0000 0000 0002 is always declined: with `payment_behavior:
      // error_if_incomplete`, the update is refused with a 402 card_error and nothing changes.
      const card = [...paymentMethods.values()].flat().find((pm) => pm.id === form.default_payment_method)?.card as
        | { last4?: string }
        | undefined;
      if (card?.last4 === '0002' && form.payment_behavior === 'error_if_incomplete') {
        return send(402, {
          error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
        });
      }
      if (form.cancel_at_period_end !== undefined) s.cancel_at_period_end = form.cancel_at_period_end === 'true';
      for (const [k, val] of Object.entries(form)) {
        if (k.startsWith('metadata[')) (s.metadata as Record<string, string>)[k.slice(9, -1)] = val;
      }
      const items = (s.items as { data: Array<Record<string, unknown>> }).data;
      if (form['items[0][price_data][unit_amount]'] !== undefined && items[0]) {
        items[0].price = { unit_amount: Number(form['items[0][price_data][unit_amount]']), product: form['items[0][price_data][product]'] };
        items[0].quantity = Number(form['items[0][quantity]'] ?? '1');
      } else if (form['items[0][quantity]'] !== undefined && items[0]) {
        items[0].quantity = Number(form['items[0][quantity]']);
      }
      return send(200, s);
    }
    if (sub && req.method === 'DELETE') {
      const s = subscriptions.get(sub[1]!);
      if (!s) return send(404, { error: { type: 'invalid_request_error', message: `No such subscription: '${sub[1]}'` } });
      s.status = 'canceled';
      return send(200, s);
    }
    if (req.method === 'POST' && url.pathname === '/v1/products') {
      return send(200, { id: `prod_test_${++n}`, object: 'product', name: form.name, active: true });
    }
    if (req.method === 'POST' && url.pathname === '/v1/customers') {
      const c = {
        id: `cus_test_${++n}`,
        object: 'customer',
        metadata: metadataOf(form),
        invoice_settings: { default_payment_method: null },
      };
      customers.set(c.id, c);
      return send(200, c);
    }
    if (req.method === 'GET' && url.pathname === '/v1/customers/search') {
      const wanted = /metadata\['customerId'\]:'([^']*)'/.exec(url.searchParams.get('query') ?? '')?.[1];
      const data = [...customers.values()].filter((c) => (c.metadata as Record<string, string>).customerId === wanted);
      return send(200, { object: 'search_result', data, has_more: false, next_page: null, url: url.pathname });
    }
    const cus = /^\/v1\/customers\/(cus_[^/]+)$/.exec(url.pathname);
    if (cus && req.method === 'POST') {
      const c = customers.get(cus[1]!) ?? {
        id: cus[1],
        object: 'customer',
        metadata: {},
        invoice_settings: { default_payment_method: null },
      };
      Object.assign(c.metadata as Record<string, string>, metadataOf(form));
      if (form['invoice_settings[default_payment_method]'] !== undefined) {
        c.invoice_settings = { default_payment_method: form['invoice_settings[default_payment_method]'] };
      }
      customers.set(cus[1]!, c);
      return send(200, c);
    }
    if (req.method === 'POST' && url.pathname === '/v1/setup_intents') {
      const id = `seti_test_${++n}`;
      const si = {
        id,
        object: 'setup_intent',
        customer: form.customer ?? null,
        status: 'requires_payment_method',
        usage: form.usage,
        payment_method: null,
        client_secret: `${id}_secret_test`,
      };
      setupIntents.set(id, si);
      return send(200, si);
    }
    const seti = /^\/v1\/setup_intents\/([^/]+)$/.exec(url.pathname);
    if (seti && req.method === 'GET') {
      const si = setupIntents.get(seti[1]!);
      return si ? send(200, si) : send(404, { error: { type: 'invalid_request_error', message: `No such setupintent: '${seti[1]}'` } });
    }
    if (req.method === 'POST' && url.pathname === '/v1/account_sessions') {
      return send(200, {
        object: 'account_session',
        account: form.account,
        client_secret: `accs_secret_${++n}`,
        expires_at: nowSec + 3600,
        livemode: false,
      });
    }
    if (req.method === 'GET' && url.pathname === '/v1/payment_method_configurations') {
      return send(200, { object: 'list', data: [...paymentMethodConfigs.values()], has_more: false, url: url.pathname });
    }
    const pmc = /^\/v1\/payment_method_configurations\/([^/]+)$/.exec(url.pathname);
    if (pmc && req.method === 'POST') {
      const config = paymentMethodConfigs.get(pmc[1]!);
      if (!config)
        return send(404, { error: { type: 'invalid_request_error', message: `No such payment_method_configuration: '${pmc[1]}'` } });
      for (const [k, val] of Object.entries(form)) {
        const m = /^([a-z_]+)\[display_preference\]\[preference\]$/.exec(k);
        const method = m ? (config[m[1]!] as { display_preference: Record<string, unknown> } | undefined) : undefined;
        if (method) {
          method.display_preference.preference = val;
          if (method.display_preference.overridable) method.display_preference.value = val;
        }
      }
      return send(200, config);
    }
    const pms = /^\/v1\/customers\/([^/]+)\/payment_methods$/.exec(url.pathname);
    if (pms && req.method === 'GET') {
      const limit = Number(url.searchParams.get('limit') ?? '10');
      const data = (paymentMethods.get(pms[1]!) ?? []).slice(0, limit);
      return send(200, { object: 'list', data, has_more: false, url: url.pathname });
    }
    if (req.method === 'POST' && url.pathname === '/v1/refunds') {
      made.refunds++;
      const refund = {
        id: `re_test_${++n}`,
        object: 'refund',
        amount: Number(form.amount),
        payment_intent: form.payment_intent,
        status: 'succeeded',
      };
      if (lose.refundAnswers > 0) {
        lose.refundAnswers--;
        if (idempotencyKey !== undefined) idempotent.set(idempotencyKey, { request, status: 200, body: refund });
        return req.socket.destroy();
      }
      return send(200, refund);
    }
    return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname}).` } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    calls,
    made,
    lose,
    subscriptions,
    paymentMethods,
    customers,
    setupIntents,
    paymentMethodConfigs,
    override: { host: '127.0.0.1', port, protocol: 'http' as const },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A Stripe account's default payment method configuration (Stripe's shape; a few methods). */
function defaultPaymentMethodConfig(): Record<string, unknown> {
  const method = (available: boolean, on: boolean, overridable = true) => ({
    available,
    display_preference: { overridable, preference: on ? 'on' : 'off', value: on ? 'on' : 'off' },
  });
  return {
    id: 'pmc_default',
    object: 'payment_method_configuration',
    active: true,
    application: null,
    is_default: true,
    livemode: false,
    name: 'Default',
    parent: null,
    card: method(true, true),
    link: method(true, true),
    apple_pay: method(true, true, false),
    us_bank_account: method(true, false),
    klarna: method(false, false),
    affirm: method(true, false),
    // A method Stripe has that the dashboard does not offer: not listed.
    revolut_pay: method(true, false),
  };
}

/**
 * Signs an event as Stripe does (`stripe.webhooks.generateTestHeaderString`) and posts it to the
 * project's Stripe webhook route.
 */
export async function sendStripeEvent(server: { url: string }, projectId: string, event: Record<string, unknown>, secret: string) {
  const { default: Stripe } = await import('stripe');
  const payload = JSON.stringify({
    object: 'event',
    api_version: '2025-01-27',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    ...event,
  });
  const header = new Stripe('sk_test_signer').webhooks.generateTestHeaderString({ payload, secret });
  const res = await fetch(`${server.url}/api/v1/integrations/stripe/webhooks?project_id=${projectId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    body: payload,
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text), header: res.headers.get('x-stack-known-error') };
}
