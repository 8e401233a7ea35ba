import assert from 'node:assert/strict';
import { it } from 'node:test';
import { upsertOverride } from '../../core/config/queries.ts';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject } from '../helpers/api.ts';

/**
 * JSON text inside a string field (`config_override_string`, `config_string`)
 * was parsed without the body's depth bound: 5,000 levels answered 500, and about 2,000 levels
 * were stored, after which every config render of the project (sign-ups included) answered 500.
 * Every JSON text the server parses from tenant input goes through one bounded parser
 * (core/lib/json-text.ts parseJsonText), and a stored override that is too deep is ignored with a
 * logged warning instead of breaking the project.
 */

const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describeWithServer('deep JSON inside config override strings (issue 27 finding 8)', (get) => {
  it('answers 400 naming the depth bound for 2,000- and 5,000-deep config strings, on both override routes', async () => {
    const server = get();
    const { admin, client } = await createProject(server);
    for (const depth of [2000, 5000]) {
      // A sign-up rule is a loose object: an extra property carried the nesting into storage.
      const text = `{"auth.signUpRules.x": {"action": {"type": "log"}, "extra": ${nested(depth)}}}`;
      const patch = await api(server, 'PATCH', '/internal/config/override/branch', admin, { config_override_string: text });
      assert.equal(patch.status, 400, `${depth}: ${patch.text.slice(0, 300)}`);
      assert.match(patch.text, /nested too deeply: at most 64 levels/);
      const put = await api(server, 'PUT', '/internal/config/override/branch', admin, { config_string: text });
      assert.equal(put.status, 400, `${depth}: ${put.text.slice(0, 300)}`);
    }
    const config = await api(server, 'GET', '/internal/config', admin);
    assert.equal(config.status, 200, config.text.slice(0, 300));
    const signUp = await api(server, 'POST', '/auth/password/sign-up', client, {
      email: 'deep-config@example.com',
      password: 'velvet tractor 93',
    });
    assert.equal(signUp.status, 200, signUp.text);
  });

  it('keeps serving a project whose stored override is nested too deeply: that level is ignored, the others still apply', async () => {
    const server = get();
    const { admin, client } = await createProject(server);
    const ok = await api(server, 'PATCH', '/internal/config/override/environment', admin, {
      config_override_string: JSON.stringify({ 'auth.signUpRulesDefaultAction': 'reject' }),
    });
    assert.equal(ok.status, 200, ok.text);
    // As stored before the bound: a branch override about 2,000 levels deep.
    await upsertOverride(server.gatehouse.core.runtime.db, {
      projectId: admin.projectId!,
      branchId: 'main',
      level: 'branch',
      now: Date.now(),
      config: { 'auth.signUpRules.x': { action: { type: 'log' }, extra: JSON.parse(nested(2000)) } },
    });
    const config = await api(server, 'GET', '/internal/config', admin);
    assert.equal(config.status, 200, config.text.slice(0, 300));
    assert.equal(JSON.parse(config.body.config_string).auth.signUpRulesDefaultAction, 'reject', 'the environment level still applies');
    const signUp = await api(server, 'POST', '/auth/password/sign-up', client, {
      email: 'stored-deep@example.com',
      password: 'velvet tractor 93',
    });
    assert.equal(signUp.status, 403, signUp.text);
    assert.equal(signUp.headers.get('x-stack-known-error'), 'SIGN_UP_REJECTED');
    // The admin can repair the level by replacing it.
    const repaired = await api(server, 'PUT', '/internal/config/override/branch', admin, {
      config_string: '{}',
      source: { type: 'unlinked' },
    });
    assert.equal(repaired.status, 200, repaired.text);
  });
});
