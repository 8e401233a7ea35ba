import { createSystemContext } from '../operations/execute.ts';
import type { Runtime } from '../runtime.ts';
import { findProject } from '../projects/index.ts';
import { findUser } from '../users/index.ts';
import { findScimTokenByHash, listScimGroups, listScimUsers, touchScimToken } from './queries.ts';
import { MAX_PAGE_SIZE, SCHEMA, SCIM_STATUS, ScimError, scimErrorBody } from './protocol.ts';
import { pageOf, parseEqFilter } from './filter.ts';
import { resourceTypes, schemas, serviceProviderConfig } from './discovery.ts';
import { createScimUser, deleteScimUserResource, getScimUser, toScimUser } from './users.ts';
import { patchScimUser, replaceScimUser } from './users-patch.ts';
import { createScimGroup, deleteScimGroupResource, getScimGroup, patchScimGroup, replaceScimGroup, toScimGroup } from './groups.ts';
import { scimBaseUrl, scimTokenHash } from './tokens.ts';
import type { ScimScope } from './scope.ts';

/** A SCIM request as the host read it (transport-free). */
export interface ScimRequest {
  method: string;
  /** Path segments after `/api/v1/scim/v2/`, decoded: `[team_id, 'Users', id?]`. */
  segments: readonly string[];
  query: Record<string, string>;
  /** The `Authorization` header, if any. */
  authorization: string | undefined;
  /** The parsed JSON body, or undefined. */
  body: unknown;
}

/** A SCIM answer: status, JSON body (null for 204), and the URL of a created resource. */
export interface ScimAnswer {
  status: number;
  body: Record<string, unknown> | null;
  location?: string;
}

/** Token uses within this window are not written back (`last_used_at` is minute-precise). */
const TOUCH_EVERY_MS = 60_000;

/**
 * Authenticates a SCIM request: `Authorization: Bearer <token>` of a live token of team `teamId`
 * (401 otherwise, the same answer whether the token is unknown, revoked or another team's).
 */
async function authenticate(runtime: Runtime, teamId: string, authorization: string | undefined): Promise<ScimScope> {
  const match = /^Bearer\s+(\S{1,200})$/i.exec(authorization ?? '');
  const token = match ? await findScimTokenByHash(runtime.db, scimTokenHash(match[1]!)) : null;
  if (!token || token.team_id !== teamId) throw new ScimError(401, 'A valid SCIM bearer token of this team is required.');
  const project = await findProject(runtime.db, token.project_id);
  if (!project) throw new ScimError(401, 'A valid SCIM bearer token of this team is required.');
  const ctx = createSystemContext(runtime);
  if (token.last_used_at === null || ctx.now - token.last_used_at > TOUCH_EVERY_MS) await touchScimToken(runtime.db, token.id, ctx.now);
  return { ctx, flush: ctx.flush, project, teamId, baseUrl: scimBaseUrl(runtime.baseUrl, teamId) };
}

function listResponse(resources: unknown[], total: number, startIndex: number): Record<string, unknown> {
  return { schemas: [SCHEMA.listResponse], totalResults: total, startIndex, itemsPerPage: resources.length, Resources: resources };
}

const USER_FILTERS = ['username', 'externalid'] as const;
const GROUP_FILTERS = ['displayname', 'externalid'] as const;

async function listUsers(scope: ScimScope, query: Record<string, string>): Promise<Record<string, unknown>> {
  const { startIndex, count } = pageOf(query, MAX_PAGE_SIZE);
  const filter = query.filter ? parseEqFilter(query.filter, USER_FILTERS) : null;
  const where = filter
    ? { column: filter.attribute === 'username' ? ('user_name' as const) : ('external_id' as const), value: filter.value }
    : null;
  const { rows, total } = await listScimUsers(scope.ctx.db, scope.teamId, where, startIndex - 1, count);
  const resources = [];
  for (const row of rows) {
    const user = await findUser(scope.ctx.db, scope.project.id, row.user_id);
    if (user) resources.push(toScimUser(scope, row, user));
  }
  return listResponse(resources, total, startIndex);
}

async function listGroups(scope: ScimScope, query: Record<string, string>): Promise<Record<string, unknown>> {
  const { startIndex, count } = pageOf(query, MAX_PAGE_SIZE);
  const filter = query.filter ? parseEqFilter(query.filter, GROUP_FILTERS) : null;
  const where = filter
    ? { column: filter.attribute === 'displayname' ? ('display_name' as const) : ('external_id' as const), value: filter.value }
    : null;
  const { rows, total } = await listScimGroups(scope.ctx.db, scope.teamId, where, startIndex - 1, count);
  const resources = [];
  for (const row of rows) resources.push(await toScimGroup(scope, row));
  return listResponse(resources, total, startIndex);
}

const notFound = () => new ScimError(404, 'No such SCIM endpoint.');
const notAllowed = (method: string) => new ScimError(405, `${method} is not supported here.`);

/** Routes an authenticated request to its resource handler. */
async function route(runtime: Runtime, request: ScimRequest): Promise<ScimAnswer> {
  const [teamId, resource, id, ...rest] = request.segments;
  if (!teamId || !resource || rest.length > 0) throw notFound();
  const scope = await authenticate(runtime, teamId, request.authorization);
  const { method, body } = request;
  const ok = (value: Record<string, unknown>) => ({ status: SCIM_STATUS.ok, body: value });
  const answer = async (): Promise<ScimAnswer> => {
    switch (resource) {
      case 'ServiceProviderConfig':
        if (id !== undefined) throw notFound();
        if (method !== 'GET') throw notAllowed(method);
        return ok(serviceProviderConfig(scope.baseUrl));
      case 'Schemas': {
        if (method !== 'GET') throw notAllowed(method);
        const all = schemas(scope.baseUrl);
        if (id === undefined) return ok(listResponse(all, all.length, 1));
        const one = all.find((s) => s.id === id);
        if (!one) throw new ScimError(404, `Schema ${id} not found.`);
        return ok(one);
      }
      case 'ResourceTypes': {
        if (method !== 'GET') throw notAllowed(method);
        const all = resourceTypes(scope.baseUrl);
        if (id === undefined) return ok(listResponse(all, all.length, 1));
        const one = all.find((t) => t.id === id);
        if (!one) throw new ScimError(404, `Resource type ${id} not found.`);
        return ok(one);
      }
      case 'Users':
        if (id === undefined) {
          if (method === 'GET') return ok(await listUsers(scope, request.query));
          if (method === 'POST') {
            const created = await createScimUser(scope, body);
            return { status: SCIM_STATUS.created, body: created, location: `${scope.baseUrl}/Users/${String(created.id)}` };
          }
          throw notAllowed(method);
        }
        if (method === 'GET') {
          const { row, user } = await getScimUser(scope, id);
          return ok(toScimUser(scope, row, user));
        }
        if (method === 'PUT') return ok(await replaceScimUser(scope, id, body));
        if (method === 'PATCH') return ok(await patchScimUser(scope, id, body));
        if (method === 'DELETE') {
          await deleteScimUserResource(scope, id);
          return { status: SCIM_STATUS.noContent, body: null };
        }
        throw notAllowed(method);
      case 'Groups':
        if (id === undefined) {
          if (method === 'GET') return ok(await listGroups(scope, request.query));
          if (method === 'POST') {
            const created = await createScimGroup(scope, body);
            return { status: SCIM_STATUS.created, body: created, location: `${scope.baseUrl}/Groups/${String(created.id)}` };
          }
          throw notAllowed(method);
        }
        if (method === 'GET') return ok(await toScimGroup(scope, await getScimGroup(scope, id)));
        if (method === 'PUT') return ok(await replaceScimGroup(scope, id, body));
        if (method === 'PATCH') return ok(await patchScimGroup(scope, id, body));
        if (method === 'DELETE') {
          await deleteScimGroupResource(scope, id);
          return { status: SCIM_STATUS.noContent, body: null };
        }
        throw notAllowed(method);
      default:
        throw notFound();
    }
  };
  const result = await answer();
  await scope.flush();
  return result;
}

/**
 * Answers one SCIM 2.0 request (RFC 7644) of a team: `/{team_id}/ServiceProviderConfig`,
 * `/Schemas`, `/ResourceTypes`, `/Users` and `/Groups` with their create, read, list (`filter`
 * `attr eq "value"`, `startIndex`, `count` ≤ 200), replace, patch and delete. Authenticated by the
 * team's bearer token. Never throws: protocol errors become RFC 7644 §3.12 error bodies; an
 * unexpected failure a 500 error body (logged by the caller through `onUnexpected`).
 */
export async function answerScim(runtime: Runtime, request: ScimRequest, onUnexpected: (error: unknown) => void): Promise<ScimAnswer> {
  try {
    return await route(runtime, request);
  } catch (error) {
    if (error instanceof ScimError) return { status: error.status, body: scimErrorBody(error) };
    // Two concurrent creates of one userName or group name: the unique index decides.
    if (runtime.storage.isUniqueViolation(error)) {
      const conflict = new ScimError(409, 'A resource with that name was created at the same time.', 'uniqueness');
      return { status: conflict.status, body: scimErrorBody(conflict) };
    }
    onUnexpected(error);
    const unexpected = new ScimError(500, 'An unexpected error occurred.');
    return { status: unexpected.status, body: scimErrorBody(unexpected) };
  }
}

/** The SCIM endpoints under `/api/v1/scim/v2/{team_id}`, for the OpenAPI document (scripts/openapi/document.ts). */
export const SCIM_ENDPOINTS: ReadonlyArray<{
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  summary: string;
  created?: true;
  noContent?: true;
}> = [
  { method: 'GET', path: '/ServiceProviderConfig', summary: 'SCIM: the service provider configuration (RFC 7643 §5).' },
  { method: 'GET', path: '/Schemas', summary: 'SCIM: the User and Group schemas (RFC 7643 §7).' },
  { method: 'GET', path: '/Schemas/{schema_id}', summary: 'SCIM: one schema.' },
  { method: 'GET', path: '/ResourceTypes', summary: 'SCIM: the resource types (RFC 7643 §6).' },
  { method: 'GET', path: '/ResourceTypes/{resource_type}', summary: 'SCIM: one resource type.' },
  { method: 'GET', path: '/Users', summary: 'SCIM: list provisioned users (filter userName eq "…", startIndex, count).' },
  { method: 'POST', path: '/Users', summary: 'SCIM: provision a user into the team.', created: true },
  { method: 'GET', path: '/Users/{id}', summary: 'SCIM: a provisioned user.' },
  { method: 'PUT', path: '/Users/{id}', summary: "SCIM: replace a user's attributes." },
  { method: 'PATCH', path: '/Users/{id}', summary: 'SCIM: patch a user (active false deprovisions at once).' },
  { method: 'DELETE', path: '/Users/{id}', summary: 'SCIM: deprovision a user.', noContent: true },
  { method: 'GET', path: '/Groups', summary: 'SCIM: list groups (filter displayName eq "…").' },
  { method: 'POST', path: '/Groups', summary: 'SCIM: create a group (mapped to the team permission of its name).', created: true },
  { method: 'GET', path: '/Groups/{id}', summary: 'SCIM: a group with its members.' },
  { method: 'PUT', path: '/Groups/{id}', summary: 'SCIM: replace a group.' },
  { method: 'PATCH', path: '/Groups/{id}', summary: "SCIM: patch a group's members or name." },
  { method: 'DELETE', path: '/Groups/{id}', summary: 'SCIM: delete a group (members lose its permission).', noContent: true },
];
