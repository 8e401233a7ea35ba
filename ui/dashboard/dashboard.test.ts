import assert from 'node:assert/strict';
import { it } from 'node:test';
import { GatehouseKnownError, GatehouseStatusError } from '../../sdk/errors.ts';
import { errorMessage, isNotEnabled } from './api.ts';
import { handlerPathProblem, isValidEmail, parseJsonField } from './validate.ts';
import { envSnippet } from './pages/keys.tsx';
import { usersQuery, USERS_PAGE_SIZE } from './pages/users.tsx';
import { productionProblems } from './pages/settings.tsx';
import { domainProblem } from './pages/auth-methods.tsx';
import { permissionIdProblem } from './pages/permissions.tsx';
import { sourcesOf } from './pages/email-sources.tsx';

it('builds the env snippet from the values shown once (only the keys that were created)', () => {
  const snippet = envSnippet('https://auth.example.com', 'p-1', {
    id: 'k',
    description: '',
    created_at_millis: 0,
    expires_at_millis: null,
    manually_revoked_at_millis: null,
    publishable_client_key: 'pck_1',
    secret_server_key: 'ssk_2',
    super_secret_admin_key: { last_four: 'abcd' },
  });
  assert.equal(
    snippet,
    'NEXT_PUBLIC_STACK_API_URL=https://auth.example.com\nNEXT_PUBLIC_STACK_PROJECT_ID=p-1\nNEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY=pck_1\nSTACK_SECRET_SERVER_KEY=ssk_2',
  );
});

it('sends the users table query the server understands (limit, order, search, cursor)', () => {
  assert.deepEqual(usersQuery({ search: '  ', desc: true, cursor: null }), {
    limit: USERS_PAGE_SIZE,
    order_by: 'signed_up_at',
    desc: true,
  });
  assert.deepEqual(usersQuery({ search: ' ada ', desc: false, cursor: 'c' }), {
    limit: USERS_PAGE_SIZE,
    order_by: 'signed_up_at',
    desc: false,
    query: 'ada',
    cursor: 'c',
  });
});

it('lists the upstream packages/stack-shared/src/schema-fields.ts production-mode problems of a config', () => {
  assert.deepEqual(productionProblems({ allow_localhost: false, domains: [{ domain: 'https://app.example.com' }] }), []);
  const problems = productionProblems({
    allow_localhost: true,
    domains: [{ domain: 'http://app.example.com' }, { domain: 'https://127.0.0.1' }],
  });
  // allow_localhost alone is no problem (upstream allows it in production mode).
  assert.equal(problems.length, 2);
  assert.match(problems[0]!, /http:\/\/app\.example\.com must use HTTPS/);
  assert.match(problems[1]!, /127\.0\.0\.1/);
});

it('validates trusted domains, handler paths, permission ids, emails and JSON as you type', () => {
  assert.equal(domainProblem(''), null);
  assert.equal(domainProblem('https://app.example.com'), null);
  assert.equal(domainProblem('https://*.example.com'), null);
  assert.match(domainProblem('https://bad..example.com')!, /Not a valid domain/);
  assert.match(domainProblem('ftp://example.com')!, /Not a valid domain/);
  assert.match(domainProblem('https://example.com/*')!, /Not a valid domain/);
  assert.equal(handlerPathProblem('/handler'), null);
  assert.equal(handlerPathProblem('handler'), 'Handler path must start with /');
  assert.equal(permissionIdProblem('read:docs'), null);
  assert.match(permissionIdProblem('Read Docs')!, /Only lowercase letters/);
  assert.match(permissionIdProblem('$x')!, /System permissions/);
  assert.equal(isValidEmail('ada@example.com'), true);
  for (const bad of ['ada', 'ada@example', '.ada@example.com', 'a..b@example.com', 'a b@example.com', `${'a'.repeat(250)}@example.com`])
    assert.equal(isValidEmail(bad), false, bad);
  assert.deepEqual(parseJsonField(''), { ok: true, value: null });
  assert.deepEqual(parseJsonField('{"a":1}'), { ok: true, value: { a: 1 } });
  const bad = parseJsonField('{ nope');
  assert.equal(bad.ok, false);
});

it('turns failed calls into readable text', () => {
  assert.equal(
    errorMessage(
      new GatehouseKnownError('SCHEMA_ERROR', { message: 'Request validation failed on PATCH /x:\n  - body.a must be defined' }, 'x', 400),
    ),
    'Body.a must be defined.',
  );
  // Turning production mode on with a development provider and a localhost domain (core/config/project-config.ts configProblems).
  const production =
    'Request validation failed on PATCH /api/v1/internal/projects/current:\n  - body.config: OAuth provider github uses shared keys (the built-in development provider), which is not allowed in production mode\n  - body.config: domain http://localhost:3000 is not allowed in production mode (it must use HTTPS and must not be localhost or an IP address)';
  assert.equal(
    errorMessage(new GatehouseKnownError('SCHEMA_ERROR', { message: production }, 'x', 400)),
    'OAuth provider github uses shared keys (the built-in development provider), which is not allowed in production mode.\nDomain http://localhost:3000 is not allowed in production mode (it must use HTTPS and must not be localhost or an IP address).',
  );
  assert.match(
    errorMessage(new GatehouseKnownError('PROJECT_NOT_FOUND', {}, 'Project not found.', 404)),
    /Project not found\. \(PROJECT_NOT_FOUND\)/,
  );
  assert.equal(
    errorMessage(new GatehouseStatusError(400, 'only_anonymous=true requires include_anonymous=true', '/users')),
    'only_anonymous=true requires include_anonymous=true',
  );
  assert.equal(isNotEnabled(new GatehouseStatusError(400, 'User API keys are not enabled for this project.', '/user-api-keys')), true);
  assert.equal(isNotEnabled(new GatehouseStatusError(404, 'nope', '/x')), false);
});

it('reads the list out of any email-source answer shape', () => {
  assert.deepEqual(
    sourcesOf({ templates: [{ id: 'a', display_name: 'A', tsx_source: '' }] }).map((s) => s.id),
    ['a'],
  );
  assert.deepEqual(sourcesOf({ items: [] }), []);
  assert.deepEqual(sourcesOf({}), []);
});
