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

/** Connects, sends GET /health as soon as connected, and reports how the connection ended. */
function probe(url: string): Promise<{ outcome: Outcome; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let connected = false;
    let text = '';
    let error: NodeJS.ErrnoException | null = null;
    const socket = connect(Number(port), hostname, () => {
      connected = true;
      socket.write('GET /health HTTP/1.1\r\nhost: x\r\n\r\n');
    });
    socket.setEncoding('utf8').on('data', (d: string) => { text += d; });
    socket.on('error', (e: NodeJS.ErrnoException) => { error = e; });
    socket.on('close', () => {
      if (!connected) resolve({ outcome: 'refused', text });
      else if (/^HTTP\/1\.1 200 /.test(text) && text.includes('{"status":"ok"}')) resolve({ outcome: 'served', text });
      else resolve({ outcome: (error as NodeJS.ErrnoException | null)?.code === 'ECONNRESET' ? 'reset' : 'closed without an answer', text });
    });
  });
}

describe('graceful shutdown of a real gatehouse process', () => {
  it('on SIGTERM answers every connection opened just before it (none reset), with connection: close, and exits 0', async () => {
    const proc = await spawnGatehouse([...CLI, '--port', '0', '--data-dir', dir], { env: { ...process.env, ...SEED_KEYS }, timeoutMs: 60_000 });
    try {
      // A burst of connections, and SIGTERM while they are being accepted.
      const probes = Array.from({ length: 20 }, () => probe(proc.url));
      proc.child.kill('SIGTERM');
      const results = await Promise.all(probes);
      const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
      const summary = `served ${count('served')}, refused ${count('refused')}, reset ${count('reset')}, closed without an answer ${count('closed without an answer')}`;
      assert.equal(count('reset') + count('closed without an answer'), 0, summary);
      assert.ok(count('served') > 0, summary);
      for (const r of results.filter((x) => x.outcome === 'served')) assert.match(r.text, /\r\nconnection: close\r\n/i);
      assert.deepEqual(await proc.exited, { code: 0, signal: null }, proc.stderr());
    } finally {
      proc.child.kill('SIGKILL');
    }
  });
});
