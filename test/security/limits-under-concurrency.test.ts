import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { generateTotp } from '../../core/mfa/index.ts';
import { api, callerHeaders, createProject, type Caller } from '../helpers/api.ts';
import { createTestDatabase, testDialects } from '../helpers/dialects.ts';
import { passwordAttempt, totpUser } from '../helpers/mfa-users.ts';
import { INTERNAL_KEYS, type TestServer } from '../helpers/server.ts';
import { uniqueEmail } from '../helpers/smtp.ts';
import { sendOnNewConnection, spawnGatehouse, type GatehouseProcess } from '../ops/process.ts';
import { GATEHOUSE_CLI } from '../helpers/gatehouse-cli.ts';

/**
 * Limits hold under concurrency, on real server processes with the
 * real clock (a request that starts later carries a later time), one process and `--workers 2`
 * (two processes on one database), repeated in rounds so a race shows.
 *
 * - An item balance of 10 and 30 concurrent `update-quantity {delta: -1, allow_negative: false}`:
 *   exactly 10 succeed and the balance ends at 0 (it overdrew to −5…−10 on PostgreSQL).
 * - 30 concurrent wrong TOTP codes on one MFA attempt code: at most 5 are evaluated, the others
 *   answer VERIFICATION_CODE_MAX_ATTEMPTS_REACHED, and afterwards even the right TOTP is refused.
 * - 60 concurrent OTP guesses on one sign-in code's nonce: at most 20 are evaluated.
 * - 10 concurrent grants of one non-stackable product to one customer: one succeeds.
 *
 * Each burst is sent on new connections, so the `--workers` primary spreads it over both workers
 * (checked through the `x-gatehouse-worker` header).
 */
const CLI = [...GATEHOUSE_CLI];
const ROUNDS = 5;
const PAYMENTS = {
  payments: {
    items: { tokens: { displayName: 'Tokens', customerType: 'custom' } },
    products: { licence: { displayName: 'Licence', customerType: 'custom', prices: { once: { USD: '10.00' } }, includedItems: {} } },
  },
};

const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function start(databaseUrl: string, workers: 1 | 2): Promise<GatehouseProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-limits-'));
  temps.push(dir);
  return spawnGatehouse([...CLI, '--port', '0', '--data-dir', dir, '--database-url', databaseUrl, '--workers', String(workers)], {
    env: {
      ...process.env,
      GATEHOUSE_ENVIRONMENT: 'development',
      GATEHOUSE_SEED_INTERNAL_PUBLISHABLE_CLIENT_KEY: INTERNAL_KEYS.publishableClientKey,
      GATEHOUSE_SEED_INTERNAL_SECRET_SERVER_KEY: INTERNAL_KEYS.secretServerKey,
      GATEHOUSE_SEED_INTERNAL_SUPER_SECRET_ADMIN_KEY: INTERNAL_KEYS.superSecretAdminKey,
    },
    // Three processes start one after another; on a loaded shared machine that can take a minute.
    timeoutMs: 240_000,
  });
}

/** `count` copies of one request at once, each on a new connection. */
async function burst(proc: GatehouseProcess, count: number, method: string, path: string, caller: Caller, body: (i: number) => unknown) {
  const headers = { ...callerHeaders(caller), 'content-type': 'application/json' };
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) => sendOnNewConnection(proc.url, method, `/api/v1${path}`, headers, body(i))),
  );
  for (const a of answers) assert.ok(a.status < 500, `${path} answered ${a.status}: ${JSON.stringify(a.body)}`);
  return answers;
}

/** Each answer's known-error code, or its status when it has none (200, a 429 of the throttle). */
const codes = (answers: Array<{ status: number; body: any }>) => answers.map((a) => a.body?.code ?? String(a.status));
const count = (list: string[], code: string) => list.filter((c) => c === code).length;

/** A 6-character OTP guess (equal to the real one with probability 32^-6). */
const wrongOtp = (i: number) => `Z${String(i).padStart(5, '0')}`;

async function rounds(proc: GatehouseProcess, workers: 1 | 2) {
  const server = { url: proc.url } as TestServer;
  const p = await createProject(server, { magic_link_enabled: true });
  const configured = await api(server, 'PATCH', '/internal/config/override/environment', p.admin, {
    config_override_string: JSON.stringify(PAYMENTS),
  });
  assert.equal(configured.status, 200, configured.text);
  const workersSeen = new Set<string>();
  for (let round = 1; round <= ROUNDS; round++) {
    // Finding 2: balance 10, 30 concurrent debits of 1.
    const customer = `custom/round-${round}-${Date.now()}/tokens`;
    const seeded = await api(server, 'POST', `/payments/items/${customer}/update-quantity?allow_negative=false`, p.server, { delta: 10 });
    assert.equal(seeded.status, 200, seeded.text);
    const debits = await burst(proc, 30, 'POST', `/payments/items/${customer}/update-quantity?allow_negative=false`, p.server, () => ({
      delta: -1,
    }));
    for (const a of debits) workersSeen.add(a.worker);
    const debitCodes = codes(debits);
    assert.equal(count(debitCodes, '200'), 10, `round ${round}: ${debitCodes.join(',')}`);
    assert.equal(count(debitCodes, 'ITEM_QUANTITY_INSUFFICIENT_AMOUNT'), 20, `round ${round}: ${debitCodes.join(',')}`);
    assert.equal((await api(server, 'GET', `/payments/items/${customer}`, p.server)).body.quantity, 0, `round ${round}`);

    // The same lock for grants: 10 concurrent grants of one non-stackable product, one owner.
    const owner = `custom/licensee-${round}-${Date.now()}`;
    const grants = await burst(proc, 10, 'POST', `/payments/products/${owner}`, p.server, () => ({ product_id: 'licence' }));
    const grantCodes = codes(grants);
    assert.equal(count(grantCodes, '200'), 1, `round ${round}: ${grantCodes.join(',')}`);
    assert.equal(count(grantCodes, 'PRODUCT_ALREADY_GRANTED'), 9, `round ${round}: ${grantCodes.join(',')}`);

    // Finding 5: 30 concurrent wrong TOTP codes on one attempt code (limit 5).
    const user = await totpUser(server, p.client);
    const attemptCode = await passwordAttempt(server, p.client, user.email);
    const right = generateTotp(user.secret, Date.now());
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
    const totps = await burst(proc, 30, 'POST', '/auth/mfa/sign-in', p.server, () => ({ type: 'totp', totp: wrong, code: attemptCode }));
    for (const a of totps) workersSeen.add(a.worker);
    const totpCodes = codes(totps);
    assert.ok(count(totpCodes, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED') >= 25, `round ${round}: ${totpCodes.join(',')}`);
    // The evaluated ones answer INVALID_TOTP_CODE, or 429 from the per-user failure backoff.
    assert.ok(
      totpCodes.every((c) => c === 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED' || c === 'INVALID_TOTP_CODE' || c === '429'),
      totpCodes.join(','),
    );
    const afterwards = await api(server, 'POST', '/auth/mfa/sign-in', p.server, {
      type: 'totp',
      totp: generateTotp(user.secret, Date.now()),
      code: attemptCode,
    });
    assert.equal(afterwards.body.code, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED', afterwards.text);

    // Finding 5: 60 concurrent OTP guesses on one sign-in code (limit 20).
    const email = uniqueEmail(`race-${round}`);
    const sent = await api(server, 'POST', '/auth/otp/send-sign-in-code', p.client, {
      email,
      callback_url: 'http://localhost:3000/handler/magic-link-callback',
    });
    assert.equal(sent.status, 200, sent.text);
    const guesses = await burst(proc, 60, 'POST', '/auth/otp/sign-in', p.server, (i) => ({ code: wrongOtp(i) + sent.body.nonce }));
    for (const a of guesses) workersSeen.add(a.worker);
    const guessCodes = codes(guesses);
    assert.equal(count(guessCodes, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED'), 40, `round ${round}: ${guessCodes.join(',')}`);
    assert.equal(count(guessCodes, 'VERIFICATION_CODE_NOT_FOUND'), 20, `round ${round}: ${guessCodes.join(',')}`);
  }
  assert.equal(workersSeen.size, workers, `answered by workers ${[...workersSeen].join(', ')}`);
}

for (const dialect of testDialects()) {
  describe(`limits under concurrency, real processes and clock (issue 27 findings 2, 5) [${dialect}]`, () => {
    for (const workers of [1, 2] as const) {
      it(`${workers === 1 ? 'one process' : '--workers 2'}: ${ROUNDS} rounds of 30 debits of a balance of 10, 10 grants of a non-stackable product, 30 wrong TOTPs (limit 5) and 60 OTP guesses (limit 20) on one code`, {
        timeout: 600_000,
      }, async () => {
        const db = await createTestDatabase(dialect);
        const proc = await start(db.databaseUrl, workers);
        try {
          await rounds(proc, workers);
        } finally {
          proc.child.kill('SIGTERM');
          await proc.exited;
          await db.drop();
        }
      });
    }
  });
}
