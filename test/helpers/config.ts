import assert from 'node:assert/strict';
import { api, type Caller } from './api.ts';
import type { TestServer } from './server.ts';

/** The rendered config of the caller's project (`GET /internal/config`, parsed `config_string`). */
export async function renderedConfig(server: TestServer, admin: Caller) {
  const res = await api(server, 'GET', '/internal/config', admin);
  assert.equal(res.status, 200, res.text);
  return JSON.parse(res.body.config_string);
}

/** `PATCH /internal/config/override/{level}` with `value` as the override string; answers the response. */
export const patchConfigOverride = (server: TestServer, caller: Caller, level: string, value: unknown) =>
  api(server, 'PATCH', `/internal/config/override/${level}`, caller, { config_override_string: JSON.stringify(value) });
