import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCoreProject, startTestCore, type TestCore } from '../../test/helpers/core-client.ts';
import { testDialects } from '../../test/helpers/dialects.ts';
import { DEFAULT_RATE_LIMITS, DEVELOPMENT_RATE_LIMITS } from './limits.ts';

// Upstream's e2e suite runs against a development backend and signs many users up from one
// address; with GATEHOUSE_ENVIRONMENT=development the per-address defaults are high, still on, and
// a project's own override still wins.

const ADDRESS = '203.0.113.7';

for (const dialect of testDialects()) {
  describe(`development rate limits [${dialect}]`, () => {
    let dev: TestCore;
    let prod: TestCore;
    before(async () => {
      [dev, prod] = await Promise.all([
        startTestCore(dialect, { environment: 'development' }),
        startTestCore(dialect, { environment: 'production' }),
      ]);
    });
    after(async () => {
      await Promise.all([dev?.close(), prod?.close()]);
    });

    const anonymousSignUps = async (t: TestCore, client: Parameters<TestCore['call']>[1], n: number) => {
      for (let i = 0; i < n; i++) await t.call('anonymous.signUp', client, { body: {}, clientAddress: ADDRESS });
    };
    const production = DEFAULT_RATE_LIMITS.anonymous_sign_up_per_address.limit;

    it('lets one address sign up more than production allows, and is still on', async () => {
      assert.ok(DEVELOPMENT_RATE_LIMITS.anonymous_sign_up_per_address.limit > production);
      const { client } = await createCoreProject(dev);
      await anonymousSignUps(dev, client, production + 5);
      const p = await createCoreProject(prod);
      await anonymousSignUps(prod, p.client, production);
      await assert.rejects(
        prod.core.invoke('anonymous.signUp', p.client, { body: {}, clientAddress: ADDRESS }),
        (e: Error & { status?: number }) => e.name === 'RateLimitError',
      );
    });

    it("keeps a project's own override in development", async () => {
      const { client } = await createCoreProject(dev, {
        rate_limits: { anonymous_sign_up_per_address: { limit: 2, window_seconds: 3600 } },
      });
      await anonymousSignUps(dev, client, 2);
      await assert.rejects(
        dev.core.invoke('anonymous.signUp', client, { body: {}, clientAddress: ADDRESS }),
        (e: Error) => e.name === 'RateLimitError',
      );
    });

    it('keeps the assistant at its production limit', () => {
      assert.deepEqual(DEVELOPMENT_RATE_LIMITS.ai_chat_per_owner, DEFAULT_RATE_LIMITS.ai_chat_per_owner);
    });
  });
}
