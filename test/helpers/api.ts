import assert from 'node:assert/strict';
import { INTERNAL_KEYS, type TestServer } from './server.ts';

/** Credentials to send with a request (all optional). */
export interface Caller {
  projectId?: string;
  accessType?: 'client' | 'server' | 'admin';
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
  accessToken?: string;
  refreshToken?: string;
  adminAccessToken?: string;
  /** Extra headers, sent as is. */
  headers?: Record<string, string>;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: T;
  text: string;
}

/**
 * Calls the API like a client would. Fails the test on any 5xx (as the upstream e2e helper
 * does), so every test also checks "never a 500". {@link apiAllowing503} is for the answers
 * that must be a 503 (a dependency that is down).
 */
export async function api<T = any>(
  server: TestServer,
  method: string,
  path: string,
  caller: Caller = {},
  body?: unknown,
): Promise<ApiResponse<T>> {
  const res = await apiAllowing503<T>(server, method, path, caller, body);
  assert.notEqual(res.status, 503, `${method} ${path} answered 503: ${res.text}`);
  return res;
}

/** As {@link api}, but a 503 (a retryable "unavailable" answer) is returned rather than failing the test; any other 5xx still fails it. */
export async function apiAllowing503<T = any>(
  server: TestServer,
  method: string,
  path: string,
  caller: Caller = {},
  body?: unknown,
): Promise<ApiResponse<T>> {
  const headers = callerHeaders(caller);
  let payload: string | undefined;
  if (body !== undefined) {
    payload = typeof body === 'string' ? body : JSON.stringify(body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${server.url}/api/v1${path}`, { method, headers, body: payload });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* text body */
  }
  assert.ok(res.status < 500 || res.status === 503, `${method} ${path} answered ${res.status}: ${text}`);
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** The request headers that carry `caller`'s credentials. */
export function callerHeaders(caller: Caller): Record<string, string> {
  const headers: Record<string, string> = { ...(caller.headers ?? {}) };
  if (caller.projectId) headers['x-stack-project-id'] = caller.projectId;
  if (caller.accessType) headers['x-stack-access-type'] = caller.accessType;
  if (caller.publishableClientKey) headers['x-stack-publishable-client-key'] = caller.publishableClientKey;
  if (caller.secretServerKey) headers['x-stack-secret-server-key'] = caller.secretServerKey;
  if (caller.superSecretAdminKey) headers['x-stack-super-secret-admin-key'] = caller.superSecretAdminKey;
  if (caller.accessToken) headers['x-stack-access-token'] = caller.accessToken;
  if (caller.refreshToken) headers['x-stack-refresh-token'] = caller.refreshToken;
  if (caller.adminAccessToken) headers['x-stack-admin-access-token'] = caller.adminAccessToken;
  return headers;
}

/** Asserts a known error: status, both known-error headers equal to the body's code. */
export function assertKnownError(res: ApiResponse, code: string, status?: number): void {
  assert.equal(res.body?.code, code, `expected ${code}, got ${res.status} ${res.text}`);
  // The header comes under the request's generation of prefixes (both when it used both or neither).
  const headers = [res.headers.get('x-stack-known-error'), res.headers.get('x-hexclave-known-error')].filter((h) => h !== null);
  assert.ok(headers.length > 0, 'a known-error header');
  for (const header of headers) assert.equal(header, code);
  if (status !== undefined) assert.equal(res.status, status);
}

export const internal = {
  client: { projectId: 'internal', accessType: 'client', publishableClientKey: INTERNAL_KEYS.publishableClientKey } as Caller,
  server: { projectId: 'internal', accessType: 'server', secretServerKey: INTERNAL_KEYS.secretServerKey } as Caller,
  admin: { projectId: 'internal', accessType: 'admin', superSecretAdminKey: INTERNAL_KEYS.superSecretAdminKey } as Caller,
};

/** An internal-project user (the dashboard's owner) with tokens, created with the server key. */
export async function createInternalUser(server: TestServer, fields: Record<string, unknown> = {}) {
  const user = await api(server, 'POST', '/users', internal.server, fields);
  assert.equal(user.status, 201, user.text);
  const session = await api(server, 'POST', '/auth/sessions', internal.server, {
    user_id: user.body.id,
    expires_in_millis: 31536000000,
    is_impersonation: false,
  });
  assert.equal(session.status, 200, session.text);
  const me = await api(server, 'GET', '/users/me', { ...internal.client, accessToken: session.body.access_token });
  assert.equal(me.status, 200, me.text);
  return {
    id: user.body.id as string,
    accessToken: session.body.access_token as string,
    refreshToken: session.body.refresh_token as string,
    selectedTeamId: me.body.selected_team_id as string,
  };
}

/**
 * A fresh project owned by a fresh internal user, as upstream's `Project.createAndSwitch()`
 * (upstream apps/backend/prisma/seed.ts). Returns callers for each access level that use the admin access token.
 */
export async function createProject(server: TestServer, config: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const owner = await createInternalUser(server);
  const res = await api(
    server,
    'POST',
    '/internal/projects',
    { ...internal.client, accessToken: owner.accessToken },
    {
      display_name: 'New Project',
      owner_team_id: owner.selectedTeamId,
      config: { credential_enabled: true, allow_localhost: true, ...config },
      ...extra,
    },
  );
  assert.equal(res.status, 201, res.text);
  const projectId = res.body.id as string;
  const as = (accessType: 'client' | 'server' | 'admin'): Caller => ({ projectId, accessType, adminAccessToken: owner.accessToken });
  return { project: res.body, projectId, owner, client: as('client'), server: as('server'), admin: as('admin') };
}

/** Creates a project key set through the admin API and returns the full values. */
export async function createProjectKeys(server: TestServer, admin: Caller) {
  const res = await api(server, 'POST', '/internal/api-keys', admin, {
    description: 'test keys',
    expires_at_millis: null,
    has_publishable_client_key: true,
    has_secret_server_key: true,
    has_super_secret_admin_key: true,
  });
  assert.equal(res.status, 200, res.text);
  return {
    publishableClientKey: res.body.publishable_client_key as string,
    secretServerKey: res.body.secret_server_key as string,
    superSecretAdminKey: res.body.super_secret_admin_key as string,
  };
}
