import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { api, createProject, type Caller } from '../helpers/api.ts';
import { patchConfigOverride } from '../helpers/config.ts';
import type { TestServer } from '../helpers/server.ts';

/** The issuer of a project's identity provider on a test server. */
export const issuerOf = (server: TestServer, projectId: string) => `${server.url}/api/v1/projects/${projectId}/oidc`;

/**
 * A fresh project with the identity provider on (`oidc.enabled`, plus any other `oidc.*` keys
 * in `settings`, e.g. `{ 'oidc.scopes': ['reports:read'] }`), and its admin caller.
 */
export async function idpProject(server: TestServer, settings: Record<string, unknown> = {}) {
  const project = await createProject(server);
  const res = await patchConfigOverride(server, project.admin, 'branch', { 'oidc.enabled': true, ...settings });
  assert.equal(res.status, 200, res.text);
  return { ...project, issuer: issuerOf(server, project.projectId) };
}

/** Registers a client through the admin API; answers the created client (with its one-time secret). */
export async function createClient(server: TestServer, admin: Caller, fields: Record<string, unknown>) {
  const res = await api(server, 'POST', '/internal/oauth-clients', admin, fields);
  assert.equal(res.status, 201, res.text);
  return res.body as { client_id: string; client_secret: string | null } & Record<string, unknown>;
}

/** openid-client's view of the issuer for a confidential client (http allowed: the test server is on loopback). */
export async function discover(issuer: string, clientId: string, secret?: string | null, metadata: Partial<oidc.ClientMetadata> = {}) {
  return oidc.discovery(new URL(issuer), clientId, metadata, secret ? oidc.ClientSecretBasic(secret) : oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
}

/** POSTs a form to `url` (RFC 6749 style), with HTTP Basic client authentication when given. */
export async function postForm(url: string, form: Record<string, string>, basic?: { id: string; secret: string }) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (basic)
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(basic.id)}:${encodeURIComponent(basic.secret)}`).toString('base64')}`;
  const res = await fetch(url, { method: 'POST', headers, body: new URLSearchParams(form) });
  const text = await res.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: res.status, body, text, headers: res.headers };
}
