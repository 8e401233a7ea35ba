import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { SEED_KEYS, spawnGatehouse } from './process.ts';
import { GATEHOUSE_CLI } from '../helpers/gatehouse-cli.ts';

/**
 * SIGTERM reset connections opened just before it: Node's server.close()
 * closes the listening socket at once, and the kernel resets every connection still waiting in
 * its accept queue (and closes accepted ones that have no request yet). Now shutdown keeps
 * accepting until the queue stays empty, serves every connection accepted with
 * `connection: close`, and only then stops listening.
 *
 * A loaded machine is made deterministic: the server is frozen (SIGSTOP) while the connections
 * are opened, so they all sit unaccepted in the kernel's accept queue (checked in /proc/net/tcp),
 * as they would behind a busy event loop; SIGTERM is then sent to the frozen process and delivered on SIGCONT. Half of
 * the connections have sent their request before the signal, half send it only after. With the
 * old shutdown (Node's server.close()) 19 of the 20 were reset.
 */

const CLI = [...GATEHOUSE_CLI];
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-shutdown-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Connections waiting in the accept queue of the IPv4 listener on `port` (the `rx_queue` of its
 * LISTEN line in /proc/net/tcp). A client sees its connect succeed a moment before the kernel has
 * queued it on the server's side: on a loaded machine that moment can last long.
 */
function acceptQueueLength(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f[1]?.endsWith(`:${hexPort}`) && f[3] === '0A') return parseInt(f[4]!.split(':')[1]!, 16);
  }
  return 0;
}

type Outcome = 'served' | 'refused' | 'reset' | 'closed without an answer';

interface Probe {
  connected: Promise<void>;
  send(): void;
  result: Promise<{ outcome: Outcome; text: string }>;
}

/** Opens a connection; `send` writes GET /health; `result` says how the connection ended. */
function probe(url: string): Probe {
  const { hostname, port } = new URL(url);
  let socket!: Socket;
  let onConnect!: () => void;
  const connected = new Promise<void>((resolve) => {
    onConnect = resolve;
  });
  const result = new Promise<{ outcome: Outcome; text: string }>((resolve) => {
    let wasConnected = false;
    let text = '';
    let error: NodeJS.ErrnoException | null = null;
    socket = connect(Number(port), hostname, () => {
      wasConnected = true;
      onConnect();
    });
    socket.setEncoding('utf8').on('data', (d: string) => {
      text += d;
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e;
      onConnect();
    });
    socket.on('close', () => {
      if (!wasConnected) resolve({ outcome: 'refused', text });
      else if (/^HTTP\/1\.1 200 /.test(text) && text.includes('"status":"ok"')) resolve({ outcome: 'served', text });
      else
        resolve({ outcome: (error as NodeJS.ErrnoException | null)?.code === 'ECONNRESET' ? 'reset' : 'closed without an answer', text });
    });
  });
  return {
    connected,
    result,
    send: () => {
      socket.write('GET /health HTTP/1.1\r\nhost: x\r\n\r\n');
    },
  };
}

for (const workers of (process.env.SHUTDOWN_WORKERS ?? '1,2').split(',').map(Number)) {
  describe(`graceful shutdown of a real gatehouse process (--workers ${workers})`, () => {
    it('on SIGTERM answers every connection waiting in the accept queue (none reset), with connection: close, and exits 0', async () => {
      const proc = await spawnGatehouse([...CLI, '--port', '0', '--data-dir', join(dir, String(workers)), '--workers', String(workers)], {
        env: { ...process.env, ...SEED_KEYS },
        timeoutMs: 60_000,
      });
      try {
        // With --workers the primary listens and hands connections to the workers (server-bin/cluster.ts).
        assert.equal(proc.child.kill('SIGSTOP'), true);
        const probes = Array.from({ length: 20 }, () => probe(proc.url));
        // Every handshake completes in the kernel while the process is frozen: all 20 wait in the queue.
        await Promise.all(probes.map((p) => p.connected));
        // …and wait until the kernel has queued all 20 on the listener (not only the clients' side).
        const port = Number(new URL(proc.url).port);
        const queued = performance.now();
        while (acceptQueueLength(port) < 20) {
          assert.ok(performance.now() - queued < 20_000, `only ${acceptQueueLength(port)} connections reached the accept queue`);
          await sleep(10);
        }
        probes.slice(0, 10).forEach((p) => p.send());
        await sleep(50);
        proc.child.kill('SIGTERM');
        proc.child.kill('SIGCONT');
        // The other half sends its request once shutdown has begun (then answered with connection: close).
        while (!proc.stderr().includes('Received SIGTERM')) await sleep(10);
        await sleep(workers > 1 ? 300 : 50);
        probes.slice(10).forEach((p) => p.send());
        const results = await Promise.all(probes.map((p) => p.result));
        const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
        const summary = `served ${count('served')}, refused ${count('refused')}, reset ${count('reset')}, closed without an answer ${count('closed without an answer')}`;
        assert.equal(count('served'), 20, `${summary}\n${proc.stderr()}`);
        // The half sent after the process reported SIGTERM is answered with connection: close.
        // The half sent before may be answered keep-alive: on SIGCONT the process can read those
        // requests before the signal (the kernel reports both at once, in no set order), and with
        // --workers the primary may hand one on before the worker heard of the shutdown; such a
        // connection is closed once idle (no reset; the full suite once saw this with one process).
        for (const r of results.slice(10)) assert.match(r.text, /\r\nconnection: close\r\n/i);
        assert.deepEqual(await proc.exited, { code: 0, signal: null }, proc.stderr());
      } finally {
        proc.child.kill('SIGCONT');
        proc.child.kill('SIGKILL');
      }
    });
  });
}
