import { createServer, type IncomingMessage, type Server } from 'node:http';

/** One request the fake Stripe API received: method, path, form fields (bracket keys kept flat). */
export interface StripeCall {
  method: string;
  path: string;
  form: Record<string, string>;
  authorization: string | undefined;
}

/**
 * A loopback HTTP server answering the Stripe API calls Gatehouse's `stripe` client makes, in
 * Stripe's documented shapes (https://docs.stripe.com/api): `GET /v1/account`,
 * `POST /v1/checkout/sessions`, `GET` / `POST` / `DELETE /v1/subscriptions/{id}`, `POST /v1/refunds`.
 * Requests must carry `Authorization: Bearer <secretKey>` (else Stripe's 401 error body).
 * Tests point the client at it with the runtime's `stripeApiOverride` (host, port, protocol).
 */
export async function startStripeApi(options: { secretKey: string; now: () => number }) {
  const calls: StripeCall[] = [];
  const subscriptions = new Map<string, Record<string, unknown>>();
  let n = 0;
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const url = new URL(req.url ?? '/', 'http://stripe.test');
    const call: StripeCall = { method: req.method ?? 'GET', path: url.pathname, form, authorization: req.headers.authorization };
    calls.push(call);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++n}` });
      res.end(JSON.stringify(body));
    };
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
      if (form.cancel_at_period_end !== undefined) s.cancel_at_period_end = form.cancel_at_period_end === 'true';
      return send(200, s);
    }
    if (sub && req.method === 'DELETE') {
      const s = subscriptions.get(sub[1]!);
      if (!s) return send(404, { error: { type: 'invalid_request_error', message: `No such subscription: '${sub[1]}'` } });
      s.status = 'canceled';
      return send(200, s);
    }
    if (req.method === 'POST' && url.pathname === '/v1/refunds') {
      return send(200, {
        id: `re_test_${++n}`,
        object: 'refund',
        amount: Number(form.amount),
        payment_intent: form.payment_intent,
        status: 'succeeded',
      });
    }
    return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname}).` } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    calls,
    subscriptions,
    override: { host: '127.0.0.1', port, protocol: 'http' as const },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
