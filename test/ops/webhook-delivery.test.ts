import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createTestDatabase, testDialects } from '../helpers/dialects.ts';
import { startWebhookReceiver, type ReceivedWebhook } from '../helpers/webhook-receiver.ts';
import { SEED_KEYS, SERVER_HEADERS, spawnGatehouse, type GatehouseProcess } from './process.ts';
import { assertExactlyArrives } from '../helpers/settle.ts';
import { GATEHOUSE_CLI } from '../helpers/gatehouse-cli.ts';

const CLI = [...GATEHOUSE_CLI];
const ADMIN_HEADERS = {
  'x-stack-project-id': 'internal',
  'x-stack-access-type': 'admin',
  'x-stack-super-secret-admin-key': SEED_KEYS.GATEHOUSE_SEED_INTERNAL_SUPER_SECRET_ADMIN_KEY,
  'content-type': 'application/json',
};
const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** Starts `gatehouse` on `databaseUrl` in development mode (webhooks may reach the loopback receiver). */
function start(databaseUrl: string): Promise<GatehouseProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-webhooks-'));
  temps.push(dir);
  return spawnGatehouse([...CLI, '--port', '0', '--data-dir', dir, '--database-url', databaseUrl], {
    env: { ...process.env, ...SEED_KEYS, GATEHOUSE_ENVIRONMENT: 'development' },
    // Generous: CI runs this beside other suites on two cores.
    timeoutMs: 60_000,
  });
}

async function createEndpoint(url: string, receiverUrl: string): Promise<void> {
  const res = await fetch(`${url}/api/v1/internal/webhook-endpoints`, {
    method: 'POST',
    headers: ADMIN_HEADERS,
    body: JSON.stringify({ url: receiverUrl, event_types: ['user.created'] }),
  });
  assert.equal(res.status, 201, await res.text());
}

async function createUser(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/users`, {
    method: 'POST',
    headers: SERVER_HEADERS,
    body: JSON.stringify({ primary_email: email }),
  });
  const body = (await res.json()) as { id: string };
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.id;
}

async function listUserIds(url: string): Promise<string[]> {
  const res = await fetch(`${url}/api/v1/users?limit=1000`, { headers: SERVER_HEADERS });
  const body = (await res.json()) as { items: { id: string }[] };
  return body.items.map((u) => u.id);
}

/** Waits until every id in `userIds` has a received `user.created` (fails after `timeoutMs`). */
async function waitForUsers(received: ReceivedWebhook[], userIds: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = new Set(received.map((r) => r.payload.data?.id));
    const missing = userIds.filter((id) => !seen.has(id));
    if (missing.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${missing.length} of ${userIds.length} users never had user.created delivered`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** user id → the distinct message ids its user.created arrived with. */
function messageIdsByUser(received: ReceivedWebhook[]): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const r of received) {
    const id = r.payload.data.id as string;
    if (!map.has(id)) map.set(id, new Set());
    map.get(id)!.add(String(r.headers['webhook-id']));
  }
  return map;
}

for (const dialect of testDialects()) {
  describe(`webhook delivery across crashes and processes [${dialect}]`, () => {
    it('after kill -9 during a burst of user creations and a restart, every committed user has exactly one user.created message, delivered', {
      timeout: 240_000,
    }, async () => {
      const db = await createTestDatabase(dialect);
      const receiver = await startWebhookReceiver();
      let proc = await start(db.databaseUrl);
      try {
        await createEndpoint(proc.url, receiver.url);
        const acknowledged: string[] = [];
        const burst = Array.from({ length: 80 }, (_, i) =>
          createUser(proc.url, `burst-${i}@example.com`)
            .then((id) => {
              acknowledged.push(id);
              if (acknowledged.length === 25) proc.child.kill('SIGKILL');
            })
            .catch(() => {
              /* cut off by the kill */
            }),
        );
        await Promise.all(burst);
        await proc.exited;
        assert.ok(acknowledged.length >= 25, `only ${acknowledged.length} sign-ups were acknowledged before the kill`);

        proc = await start(db.databaseUrl);
        const committed = await listUserIds(proc.url);
        for (const id of acknowledged) assert.ok(committed.includes(id), `acknowledged user ${id} was lost`);
        // A claim the killed process held comes due again after the lease (20 s).
        await waitForUsers(receiver.received, committed, 60_000);
        const byUser = messageIdsByUser(receiver.received);
        for (const id of committed) assert.equal(byUser.get(id)?.size, 1, `user ${id}: ${[...(byUser.get(id) ?? [])].join(', ')}`);
        for (const id of byUser.keys()) assert.ok(committed.includes(id), `an event for ${id}, which was never committed`);
      } finally {
        proc.child.kill('SIGKILL');
        await receiver.close();
        await db.drop();
      }
    });

    if (dialect === 'postgres') {
      it('two processes on one database deliver each message once per attempt', { timeout: 180_000 }, async () => {
        const db = await createTestDatabase(dialect);
        const receiver = await startWebhookReceiver();
        const a = await start(db.databaseUrl);
        const b = await start(db.databaseUrl);
        try {
          await createEndpoint(a.url, receiver.url);
          const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => createUser(i % 2 ? a.url : b.url, `pair-${i}@example.com`)));
          await waitForUsers(receiver.received, ids, 30_000);
          // One request per message, and no second one from either deliverer over a few more of their polls.
          await assertExactlyArrives(() => receiver.received.length, 40, { timeoutMs: 30_000, quietMs: 2_500, what: 'webhook requests' });
          const byUser = messageIdsByUser(receiver.received);
          for (const id of ids) assert.equal(byUser.get(id)?.size, 1);
          const endpoints = (await (await fetch(`${a.url}/api/v1/internal/webhook-endpoints`, { headers: ADMIN_HEADERS })).json()) as {
            items: { id: string }[];
          };
          const log = (await (
            await fetch(`${b.url}/api/v1/internal/webhook-endpoints/${endpoints.items[0]!.id}/deliveries?limit=100`, {
              headers: ADMIN_HEADERS,
            })
          ).json()) as { items: { status: string; attempts: unknown[] }[] };
          assert.equal(log.items.length, 40);
          for (const d of log.items) {
            assert.equal(d.status, 'succeeded');
            assert.equal(d.attempts.length, 1);
          }
        } finally {
          a.child.kill('SIGKILL');
          b.child.kill('SIGKILL');
          await receiver.close();
          await db.drop();
        }
      });
    }
  });
}
