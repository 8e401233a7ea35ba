/**
 * The admin API calls `gatehouse init` makes, over HTTP to a running server or in-process to an
 * embedded one: create a project for the dashboard's owner, a key set, and trust a dev origin.
 */
import { ConfigError } from './config.ts';
import type { Gatehouse } from './index.ts';

/** Calls Gatehouse's API (path under /api/v1); answers the parsed JSON, throws ConfigError on an error answer. */
export type Caller = (method: string, path: string, headers: Record<string, string>, body?: unknown) => Promise<any>;

type Send = (
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
) => Promise<{ status: number; text: string }>;

/** A Caller over `send`: JSON bodies in and out, error answers as one-line ConfigErrors. */
function caller(send: Send): Caller {
  return async (method, path, headers, body) => {
    const res = await send(
      method,
      `/api/v1${path}`,
      { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body !== undefined ? JSON.stringify(body) : undefined,
    );
    const text = res.text;
    if (res.status >= 300) {
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {
        /* plain text answer */
      }
      throw new ConfigError(`${method} ${path}: the server answered ${res.status}: ${message.split('\n')[0]}`);
    }
    return text === '' ? {} : JSON.parse(text);
  };
}

/** A Caller for a running server at `url`. */
export function httpCaller(url: string): Caller {
  return caller(async (method, path, headers, body) => {
    try {
      const res = await fetch(`${url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
      return { status: res.status, text: await res.text() };
    } catch (error) {
      throw new ConfigError(`cannot reach ${url} (${(error as Error).message}); start it with \`gatehouse\` or set GATEHOUSE_URL`);
    }
  });
}

/** A Caller for a Gatehouse in this process (no socket): `gatehouse.dispatch`. */
export function dispatchCaller(gatehouse: Pick<Gatehouse, 'dispatch'>): Caller {
  return caller(async (method, path, headers, body) => {
    const res = await gatehouse.dispatch({ method, path, headers, ...(body !== undefined ? { body } : {}) });
    return { status: res.status, text: res.text };
  });
}

export const adminHeaders = (projectId: string, key: string) => ({
  'x-stack-project-id': projectId,
  'x-stack-access-type': 'admin',
  'x-stack-super-secret-admin-key': key,
});

/**
 * Creates a project owned by the dashboard's first owner (the internal project's oldest user),
 * through a short impersonation session that the internal admin key may open, ended afterwards.
 *
 * @returns the new project's id and an admin caller's headers for it (the session's token).
 * @throws ConfigError when the dashboard has no owner yet.
 */
export async function createProjectForOwner(
  call: Caller,
  adminKey: string,
  name: string,
  run: (headers: Record<string, string>, projectId: string) => Promise<void>,
): Promise<string> {
  const internal = adminHeaders('internal', adminKey);
  const users = (await call('GET', '/users?limit=1&order_by=signed_up_at', internal)) as {
    items: Array<{ id: string; selected_team_id: string | null }>;
  };
  const owner = users.items[0];
  if (!owner)
    throw new ConfigError(
      'the dashboard has no owner yet: open the dashboard, sign up (the first account owns it), then run gatehouse init again',
    );
  const session = (await call('POST', '/auth/sessions', internal, {
    user_id: owner.id,
    expires_in_millis: 10 * 60_000,
    is_impersonation: true,
  })) as { access_token: string; refresh_token: string };
  try {
    let teamId = owner.selected_team_id;
    if (!teamId) {
      const teams = (await call('GET', `/teams?user_id=${encodeURIComponent(owner.id)}`, internal)) as { items: Array<{ id: string }> };
      teamId = teams.items[0]?.id ?? null;
    }
    if (!teamId)
      throw new ConfigError('the dashboard owner has no team to own a new project; create the project in the dashboard and pass --project');
    const asOwner = { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client', 'x-stack-access-token': session.access_token };
    const project = (await call('POST', '/internal/projects', asOwner, {
      display_name: name,
      owner_team_id: teamId,
      config: { credential_enabled: true, allow_localhost: true },
    })) as { id: string };
    await run(
      { 'x-stack-project-id': project.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': session.access_token },
      project.id,
    );
    return project.id;
  } finally {
    await call('DELETE', '/auth/sessions/current', {
      ...internal,
      'x-stack-access-token': session.access_token,
      'x-stack-refresh-token': session.refresh_token,
    }).catch(() => undefined);
  }
}

/** Creates a key set and adds `origin` to the project's trusted domains (kept when already there). */
export async function keysAndDomain(call: Caller, headers: Record<string, string>, origin: string, description: string) {
  const keys = (await call('POST', '/internal/api-keys', headers, {
    description,
    expires_at_millis: null,
    has_publishable_client_key: true,
    has_secret_server_key: true,
    has_super_secret_admin_key: false,
  })) as { publishable_client_key: string; secret_server_key: string };
  const project = (await call('GET', '/internal/projects/current', headers)) as {
    config: { domains: Array<{ domain: string; handler_path: string }> };
  };
  const domains = project.config.domains;
  if (!domains.some((d) => d.domain === origin)) {
    await call('PATCH', '/internal/projects/current', headers, {
      config: { domains: [...domains, { domain: origin, handler_path: '/handler' }] },
    });
  }
  return keys;
}
