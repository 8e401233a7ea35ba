import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** One siteverify request as the loopback server received it (form fields). */
export interface SiteverifyCall {
  secret: string | null;
  response: string | null;
  remoteip: string | null;
  contentType: string | undefined;
}

/**
 * A loopback server speaking Cloudflare Turnstile's `siteverify` (POST form `secret`, `response`,
 * `remoteip` → `{success, error-codes, hostname, action, challenge_ts, cdata}`), answering by token:
 * - `ok:<action>[:<hostname>]` → success for that action (hostname default `localhost`);
 * - `bad` (or anything else) → `{success: false, error-codes: ['invalid-input-response']}`;
 * - `hang` → never answers (Cloudflare unreachable for the server's deadline);
 * and for any token `{success: false, error-codes: ['invalid-input-secret']}` when the secret is not `secret`.
 * `stop()` closes it; `calls` records every request.
 */
export async function startSiteverifyServer(secret: string): Promise<{ url: string; calls: SiteverifyCall[]; stop(): Promise<void> }> {
  const calls: SiteverifyCall[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const call = {
        secret: form.get('secret'),
        response: form.get('response'),
        remoteip: form.get('remoteip'),
        contentType: req.headers['content-type'],
      };
      calls.push(call);
      const token = call.response ?? '';
      if (token === 'hang') {
        hanging.add(res);
        return;
      }
      const json = (value: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (call.secret !== secret) return json({ success: false, 'error-codes': ['invalid-input-secret'] });
      const [kind, action, hostname] = token.split(':');
      if (kind === 'ok')
        return json({
          success: true,
          challenge_ts: new Date().toISOString(),
          hostname: hostname ?? 'localhost',
          action,
          cdata: '',
          'error-codes': [],
        });
      return json({ success: false, 'error-codes': ['invalid-input-response'] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/turnstile/v0/siteverify`;
  return {
    url,
    calls,
    async stop() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
