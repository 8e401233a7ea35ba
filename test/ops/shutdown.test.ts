import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SEED_KEYS, spawnGatehouse } from './process.ts';

/**
 * Issue 12 item 9: SIGTERM reset connections opened just before it: Node's server.close()
 * closes the listening socket at once, and the kernel resets every connection still waiting in
 * its accept queue (and closes accepted ones that have no request yet). Now shutdown keeps
 * accepting for a moment, serves every connection accepted with `connection: close`, and only
 * then stops listening; a connection that arrives later is refused, never reset.
 */

const CLI = [process.execPath, '--import', 'tsx', join(import.meta.dirname, '..', '..', 'server-bin', 'cli.ts')];
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-shutdown-'));
after(() => rmSync(dir, { recursive: true, force: true }));

type Outcome = 'served' | 'refused' | 'reset' | 'closed without an answer';

/**
 * Opens a connection; `connected` resolves once the TCP handshake is done (the connection is then
 * in the server's accept queue or accepted); `send()` writes GET /health; `result` tells how the
 * connection ended.
 */
function probe(url: string): { connected: Promise<void>; send(): Promise<void>; result: Promise<{ outcome: Outcome; text: string }> } {
  const { hostname, port } = new URL(url);
  let markConnected!: () => void;
  const connected = new Promise<void>((resolve) => { markConnected = resolve; });
  let isConnected = false;
  let text = '';
  let error: NodeJS.ErrnoException | null = null;
  const socket = connect(Number(port), hostname, () => { isConnected = true; markConnected(); });
  const result = new Promise<{ outcome: Outcome; text: string }>((resolve) => {
    socket.setEncoding('utf8').on('data', (d: string) => { text += d; });
    socket.on('error', (e: NodeJS.ErrnoException) => { error = e; });
    socket.on('close', () => {
      markConnected();
      if (!isConnected) resolve({ outcome: 'refused', text });
      else if (/^HTTP\/1\.1 200 /.test(text) && text.includes('{"status":"ok"}')) resolve({ outcome: 'served', text });
      else resolve({ outcome: (error as NodeJS.ErrnoException | null)?.code === 'ECONNRESET' ? 'reset' : 'closed without an answer', text });
    });
  });
  return { connected, result, send: () => new Promise<void>((resolve) => { if (socket.destroyed) resolve(); else socket.write('GET /health HTTP/1.1\r\nhost: x\r\n\r\n', () => resolve()); }) };
}

describe('graceful shutdown of a real gatehouse process', () => {
  it('on SIGTERM answers every connection opened just before it (none reset), with connection: close, and exits 0', async () => {
    const proc = await spawnGatehouse([...CLI, '--port', '0', '--data-dir', dir], { env: { ...process.env, ...SEED_KEYS }, timeoutMs: 60_000 });
    try {
      // The process is stopped (SIGSTOP) while a burst of connections completes the TCP handshake
      // (the kernel does that for a listening socket) and sends its requests, so at SIGTERM they
      // all sit unanswered in the accept queue and socket buffers, whatever the machine's load;
      // SIGCONT then lets the server see the connections and the signal together. Before the fix,
      // closing the listener reset the queued connections and closed the accepted ones whose
      // request was not parsed yet.
      proc.child.kill('SIGSTOP');
      let results: Array<{ outcome: Outcome; text: string }>;
      try {
        const probes = Array.from({ length: 20 }, () => probe(proc.url));
        await Promise.all(probes.map((p) => p.connected));
        await Promise.all(probes.map((p) => p.send()));
        proc.child.kill('SIGTERM');
        proc.child.kill('SIGCONT');
        results = await Promise.all(probes.map((p) => p.result));
      } finally {
        proc.child.kill('SIGCONT');
      }
      const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
      const summary = `served ${count('served')}, refused ${count('refused')}, reset ${count('reset')}, closed without an answer ${count('closed without an answer')}`;
      assert.equal(count('served'), 20, `${summary}\n${proc.stderr()}\n${JSON.stringify(await proc.exited)}`);
      for (const r of results) assert.match(r.text, /\r\nconnection: close\r\n/i);
      assert.deepEqual(await proc.exited, { code: 0, signal: null }, proc.stderr());
    } finally {
      proc.child.kill('SIGKILL');
    }
  });
});
