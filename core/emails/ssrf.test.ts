import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, before, it } from 'node:test';
import { createCoreProject, describeWithCore } from '../../test/helpers/core-client.ts';

/**
 * Send-test-email with an SMTP host of 127.0.0.1 and any port returned
 * that service's banner in the error text. In production mode loopback, link-local and private
 * hosts are refused before connecting; in any mode the error never carries the remote text.
 * In-process (test/helpers/core-client.ts): the banner service is the outbound side under test.
 */

const SECRET = 'INTERNAL-SECRET-7f3a';

/** A loopback service that is not an SMTP server: it greets with a secret and answers everything with another. */
async function startBannerService(): Promise<{ server: Server; port: number; connections(): number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.on('error', () => {});
    socket.write(`+OK ${SECRET} redis-like service ready\r\n`);
    socket.on('data', () => socket.write(`-ERR ${SECRET} unknown command\r\n`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, connections: () => connections };
}

const config = (host: string, port: number) => ({
  host,
  port,
  username: 'u',
  password: 'p',
  sender_name: 'Acme',
  sender_email: 'noreply@acme.example.com',
});

for (const mode of ['production', 'development'] as const) {
  describeWithCore(
    `send-test-email to internal hosts in ${mode} mode`,
    (get) => {
      let banner: Awaited<ReturnType<typeof startBannerService>>;
      before(async () => {
        banner = await startBannerService();
      });
      after(() => {
        banner.server.close();
      });

      if (mode === 'production') {
        it('refuses loopback, link-local and private hosts (literal or by name, IPv4 and IPv6) before connecting, without any remote text', async () => {
          const t = get();
          const { admin } = await createCoreProject(t);
          for (const host of ['127.0.0.1', 'localhost', '::1', '::ffff:127.0.0.1', '169.254.169.254', '10.0.0.1', 'fd00::1']) {
            const res = await t.call<{ success: boolean; error_message: string }>('emails.sendTestEmail', admin, {
              body: {
                recipient_email: 'a@example.com',
                email_config: config(host, host.includes('127') || host === 'localhost' || host === '::1' ? banner.port : 25),
              },
            });
            assert.equal(res.success, false, host);
            assert.match(res.error_message, /loopback, link-local or private address, which is refused in production mode/, host);
          }
          assert.equal(banner.connections(), 0, 'no connection reached the internal service');
        });
      } else {
        it("connects to a loopback host, and reports the failure without the service's banner or replies", async () => {
          const t = get();
          const { admin } = await createCoreProject(t);
          const res = await t.call<{ success: boolean; error_message: string }>('emails.sendTestEmail', admin, {
            body: { recipient_email: 'a@example.com', email_config: config('127.0.0.1', banner.port) },
          });
          assert.equal(res.success, false);
          assert.ok(banner.connections() > 0, 'development mode reaches local services');
          const text = JSON.stringify(res);
          assert.ok(!text.includes(SECRET), `the remote text leaked: ${text}`);
          assert.match(res.error_message, /did not answer like an SMTP server|connection to the SMTP server failed|Sending failed/);
        });
      }
    },
    { environment: mode },
  );
}
