// A round-robin HTTP load balancer on a loopback port, for the scale-out test and benchmark
//: each request goes to the next backend in turn over kept-alive connections, as a
// reverse proxy in front of several Gatehouse processes would send it. No retries: a backend's
// failure reaches the client as a 502.
import { createServer, request, Agent } from 'node:http';

/**
 * Starts the balancer in front of `backends` (`http://127.0.0.1:<port>` each).
 * @returns its URL, per-backend request counts, and `close()`.
 */
export async function startBalancer(backends) {
  const targets = backends.map((url) => new URL(url));
  const counts = backends.map(() => 0);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  let next = 0;
  const server = createServer((req, res) => {
    const index = next++ % targets.length;
    counts[index] += 1;
    const target = targets[index];
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`balancer: ${error.message}`);
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 5000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
