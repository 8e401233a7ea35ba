import assert from 'node:assert/strict';
import { api, type Caller } from './api.ts';
import type { TestServer } from './server.ts';

export { PAYMENTS_CONFIG, codeOf } from './payments-config.ts';

export async function configure(server: TestServer, admin: Caller, config: Record<string, unknown>) {
  const res = await api(server, 'PATCH', '/internal/config/override/environment', admin, {
    config_override_string: JSON.stringify(config),
  });
  assert.equal(res.status, 200, res.text);
}
