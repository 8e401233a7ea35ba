/**
 * The dashboard's API reference page under happy-dom: it renders the server's real OpenAPI
 * document (docs/openapi.json, as GET /api/v1/openapi.json answers it) and lists every operation.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { act, flush, render, type, waitForText } from '../test-dom.tsx';
import { DashboardRoot, dashboard } from './test-harness.tsx';
import { operations } from '../../core/operations/registry.ts';
import { SCIM_ENDPOINTS } from '../../core/scim/index.ts';
import { IDENTITY_PROVIDER_ENDPOINTS } from '../../server-bin/oidc/endpoints.ts';

const document_ = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
/** Every operation the document lists: the registry's, and the SCIM and identity-provider endpoints served beside it. */
const documented = operations.length + SCIM_ENDPOINTS.length + IDENTITY_PROVIDER_ENDPOINTS.length;

it('API reference: reached from the navigation, lists every operation of the document, filters them and opens one', async () => {
  const { api, calls } = dashboard('/', (req) => (req.path === '/openapi.json' ? { status: 200, body: document_ } : undefined));
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'All projects');
  const link = [...container.querySelectorAll('nav a')].find((a) => a.textContent === 'API reference');
  assert.ok(link, 'the dashboard navigation links the API reference');
  await act(async () => {
    (link as HTMLAnchorElement).click();
  });
  await flush();
  await waitForText(container, `${documented} operations`);
  assert.ok(calls.some((c) => c.path === '/openapi.json' && c.method === 'GET'));
  const listed = new Set([...container.querySelectorAll('[data-operation-id]')].map((el) => el.getAttribute('data-operation-id')));
  for (const op of operations) assert.ok(listed.has(op.id), `${op.id} is not listed`);
  assert.equal(container.querySelector('h1')?.textContent, 'API reference');
  assert.ok(
    [...container.querySelectorAll('nav a')].some((a) => a.textContent === 'API reference' && a.getAttribute('aria-current') === 'page'),
  );

  // One operation opened: its path, access, body fields, response schema reference and errors.
  const signUp = container.querySelector('[data-operation-id="authPassword.signUp"]') as HTMLDetailsElement;
  assert.match(signUp.querySelector('summary')!.textContent!, /POST\s*\/api\/v1\/auth\/password\/sign-up/);
  assert.match(signUp.textContent!, /access: client, server, admin/);
  assert.match(signUp.textContent!, /password/);
  assert.match(signUp.textContent!, /SignIn/);
  assert.match(signUp.textContent!, /PASSWORD_TOO_SHORT/);
  assert.ok(container.querySelector('#schema-SignIn'), 'shared schemas are shown once, by name');
  // Descriptions render their inline code and quote no source files.
  const described = [...container.querySelectorAll('[data-operation-id] p')].map((p) => p.textContent ?? '').join('\n');
  assert.doesNotMatch(described, /`/, 'no unrendered backticks');
  assert.doesNotMatch(described, /\b(?:core|server-bin|apps|packages)\/[\w/.-]+|\w\.tsx?\b/, 'no internal file paths');
  assert.ok(signUp.querySelector('p code'), 'inline code is rendered as code');

  // The filter narrows the list.
  await type(container, 'Filter operations', 'team-invitations');
  const shown = [...container.querySelectorAll('[data-operation-id]')].map((el) => el.getAttribute('data-operation-id'));
  const expected = operations.filter((op) => op.path.startsWith('/team-invitations')).map((op) => op.id);
  assert.deepEqual(new Set(shown), new Set(expected));
  await waitForText(container, `${expected.length} of ${documented} operations`);
  await unmount();
});
