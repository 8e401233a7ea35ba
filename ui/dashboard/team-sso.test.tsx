/**
 * The dashboard's team page, SSO sections (under StrictMode, happy-dom, a fake transport):
 * connections with the SP details to copy, a domain's TXT record and Verify, SCIM tokens shown once.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { click, render, waitFor, waitForText } from '../test-dom.tsx';
import { DashboardRoot, PROJECT_ID, dashboard } from './test-harness.tsx';

const TEAM = '11111111-2222-4333-8444-555555555555';
const CONNECTION = '66666666-7777-4888-8999-000000000000';
const ACS = `http://localhost:3000/api/v1/auth/sso/saml/${CONNECTION}/acs`;
const METADATA = `http://localhost:3000/api/v1/auth/sso/saml/${CONNECTION}/metadata`;

it('team page: SSO connection with copyable SP details, domain TXT record and Verify, SCIM token shown once, connection deleted', async () => {
  let connections = [
    {
      id: CONNECTION,
      team_id: TEAM,
      type: 'saml',
      display_name: 'Okta',
      domains: [],
      default_permissions: null,
      attribute_mapping: {},
      group_permissions: null,
      mfa_policy: 'trust_idp',
      allow_idp_initiated: false,
      idp_initiated_redirect_url: null,
      sp_entity_id: METADATA,
      acs_url: ACS,
      sp_metadata_url: METADATA,
      idp_entity_id: 'http://www.okta.com/exk1',
      idp_sso_url: 'https://corp.okta.com/app/sso/saml',
      idp_metadata_url: 'https://corp.okta.com/app/exk1/sso/saml/metadata',
      idp_metadata_fetched_at_millis: 1_700_000_000_000,
      redirect_uri: null,
      issuer_url: null,
      client_id: null,
      created_at_millis: 1_700_000_000_000,
    },
  ];
  let verified = false;
  const domain = () => ({
    team_id: TEAM,
    domain: 'corp.example',
    verified,
    verified_at_millis: verified ? 1_700_000_100_000 : null,
    sso_enforced: false,
    challenge: { type: 'TXT', name: '_gatehouse-challenge.corp.example', value: 'gh-challenge-abc' },
    created_at_millis: 1_700_000_000_000,
  });
  let tokens: unknown[] = [];
  const list = (items: unknown[]) => ({ status: 200, body: { items, is_paginated: false } });
  const { api, calls } = dashboard(`/projects/${PROJECT_ID}/teams/${TEAM}`, (req) => {
    const path = req.path.split('?')[0];
    if (path === `/teams/${TEAM}`) return { status: 200, body: { id: TEAM, display_name: 'Corp', created_at_millis: 1 } };
    if (path === `/teams/${TEAM}/sso-connections`) return list(connections);
    if (path === `/teams/${TEAM}/sso-connections/${CONNECTION}` && req.method === 'DELETE') {
      connections = [];
      return { status: 200, body: { success: true } };
    }
    if (path === `/teams/${TEAM}/domains`) return list([domain()]);
    if (path === `/teams/${TEAM}/domains/corp.example/verify`) {
      verified = true;
      return { status: 200, body: domain() };
    }
    if (path === `/teams/${TEAM}/scim-tokens` && req.method === 'POST') {
      tokens = [{ id: 't1', team_id: TEAM, description: 'Okta', last_four: 'wxyz', created_at_millis: 1, last_used_at_millis: null }];
      return {
        status: 201,
        body: { ...(tokens[0] as object), token: 'gh_scim_secret-token-wxyz', base_url: `http://localhost:3000/api/v1/scim/v2/${TEAM}` },
      };
    }
    if (path === `/teams/${TEAM}/scim-tokens`) return list(tokens);
    if (req.method === 'GET' && path !== '/users/me' && path !== '/internal/projects') return list([]);
    return undefined;
  });
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'SSO connections');
  await waitForText(container, ACS);
  const card = () => container.querySelector(`[data-testid="sso-connection-${CONNECTION}"]`) as HTMLElement;
  assert.ok(card().querySelector('button[aria-label="Copy ACS URL"]'), 'the ACS URL has a copy button');
  assert.ok(card().querySelector('button[aria-label="Copy SP entity ID"]'));
  assert.match(card().textContent ?? '', /http:\/\/www\.okta\.com\/exk1/);

  await waitForText(container, '_gatehouse-challenge.corp.example');
  assert.match(container.textContent ?? '', /gh-challenge-abc/);
  assert.match(container.textContent ?? '', /Not verified/);
  await click(container.querySelector('table[aria-label="Domains"]') as HTMLElement, 'Verify');
  await waitForText(container, 'corp.example verified');
  await waitFor(
    () => !(container.textContent ?? '').includes('Not verified'),
    () => `still unverified: ${container.textContent}`,
  );

  await click(container.querySelector('form[aria-label="Create a SCIM token"]') as HTMLElement, 'Create token');
  await waitForText(container, 'gh_scim_secret-token-wxyz');
  assert.match(container.querySelector('[data-testid="scim-token-created"]')?.textContent ?? '', /not shown again/);
  await waitForText(container, '…wxyz');

  await click(card(), 'Delete');
  await click(card(), 'Yes, delete');
  await waitForText(container, 'No SSO connection yet.');
  assert.ok(calls.some((c) => c.method === 'DELETE' && c.path === `/teams/${TEAM}/sso-connections/${CONNECTION}`));
  await unmount();
});
