import { uuid } from '../lib/random.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { boundedString, MAX_MEMBERS, objectBody, optionalString, SCHEMA, ScimError } from './protocol.ts';
import { assignments, readPatchBody } from './patch.ts';
import { grantGroupPermission, groupPermission, revokeGroupPermission } from './membership.ts';
import {
  deleteGroupMember,
  deleteScimGroup,
  findScimGroup,
  findScimGroupByName,
  findScimUser,
  insertGroupMember,
  insertScimGroup,
  listGroupMemberIds,
  updateScimGroup,
  type ScimGroupRow,
} from './queries.ts';
import { scimTime, scimVersion, type ScimScope } from './scope.ts';

/**
 * The SCIM Group resource (RFC 7643 §4.2) of a team's group, with its members and, as Gatehouse's
 * extension attribute `urn:gatehouse:scim:group:permission`, the team permission it grants (null
 * when the project defines none of that name; see membership.ts `groupPermission`).
 */
export async function toScimGroup(scope: ScimScope, row: ScimGroupRow): Promise<Record<string, unknown>> {
  const members = await listGroupMemberIds(scope.ctx.db, row.id);
  return {
    schemas: [SCHEMA.group],
    id: row.id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    displayName: row.display_name,
    members: members.map((id) => ({ value: id, $ref: `${scope.baseUrl}/Users/${id}`, type: 'User' })),
    'urn:gatehouse:scim:group:permission': await groupPermission(scope.ctx, scope.project.id, row),
    meta: {
      resourceType: 'Group',
      created: scimTime(row.created_at),
      lastModified: scimTime(row.updated_at),
      location: `${scope.baseUrl}/Groups/${row.id}`,
      version: scimVersion(row.updated_at),
    },
  };
}

/** The member ids of a `members` value: provisioned users of this team (400 invalidValue otherwise). */
async function memberIds(scope: ScimScope, members: unknown): Promise<string[]> {
  if (members === undefined || members === null) return [];
  if (!Array.isArray(members) || members.length > MAX_MEMBERS) {
    throw new ScimError(400, `members must be an array of at most ${MAX_MEMBERS} entries.`, 'invalidValue');
  }
  const ids = new Set<string>();
  for (const member of members) {
    const id = boundedString(objectBody(member).value, 'members.value');
    if (!(await findScimUser(scope.ctx.db, scope.teamId, id))) {
      throw new ScimError(400, `members.value ${id} is not a user provisioned in this team.`, 'invalidValue');
    }
    ids.add(id);
  }
  return [...ids];
}

export async function getScimGroup(scope: ScimScope, id: string): Promise<ScimGroupRow> {
  const row = await findScimGroup(scope.ctx.db, scope.teamId, id);
  if (!row) throw new ScimError(404, `Group ${id} not found.`);
  return row;
}

async function addMembers(scope: ScimScope, group: ScimGroupRow, ids: readonly string[]): Promise<void> {
  for (const userId of ids) {
    await insertGroupMember(scope.ctx.db, group.id, userId);
    await grantGroupPermission(scope.ctx, scope.project.id, scope.teamId, userId, group);
  }
}

async function removeMembers(scope: ScimScope, group: ScimGroupRow, ids: readonly string[]): Promise<void> {
  for (const userId of ids) {
    if (await deleteGroupMember(scope.ctx.db, group.id, userId)) {
      await revokeGroupPermission(scope.ctx, scope.project.id, scope.teamId, userId, group);
    }
  }
}

/** Sets the group's members to exactly `ids`. */
async function setMembers(scope: ScimScope, group: ScimGroupRow, ids: readonly string[]): Promise<void> {
  const current = await listGroupMemberIds(scope.ctx.db, group.id);
  await removeMembers(
    scope,
    group,
    current.filter((id) => !ids.includes(id)),
  );
  await addMembers(
    scope,
    group,
    ids.filter((id) => !current.includes(id)),
  );
}

async function assertNameFree(scope: ScimScope, displayName: string, exceptId: string | null): Promise<void> {
  const other = await findScimGroupByName(scope.ctx.db, scope.teamId, displayName);
  if (other && other.id !== exceptId) throw new ScimError(409, `Group ${displayName} already exists in this team.`, 'uniqueness');
}

/** `POST /Groups` (RFC 7644 §3.3): a new group of the team; its members get its team permission. */
export async function createScimGroup(scope: ScimScope, body: unknown): Promise<Record<string, unknown>> {
  const b = objectBody(body);
  const displayName = boundedString(b.displayName, 'displayName');
  const externalId = optionalString(b.externalId, 'externalId');
  return scope.ctx.transaction(async (tx) => {
    const inner = { ...scope, ctx: tx };
    await assertNameFree(inner, displayName, null);
    const ids = await memberIds(inner, b.members);
    const row: ScimGroupRow = {
      id: uuid(),
      project_id: scope.project.id,
      team_id: scope.teamId,
      display_name: displayName,
      external_id: externalId,
      created_at: tx.now,
      updated_at: tx.now,
    };
    await insertScimGroup(tx.db, row);
    await addMembers(inner, row, ids);
    await emitWebhookEvent(tx, scope.project.id, 'scim_group.created', {
      team_id: scope.teamId,
      group_id: row.id,
      display_name: displayName,
    });
    return toScimGroup(inner, row);
  });
}

/** Renames a group: members lose the old name's permission and get the new one's. */
async function rename(scope: ScimScope, group: ScimGroupRow, displayName: string): Promise<ScimGroupRow> {
  if (displayName === group.display_name) return group;
  await assertNameFree(scope, displayName, group.id);
  const members = await listGroupMemberIds(scope.ctx.db, group.id);
  await removeMembers(scope, group, members);
  const renamed = { ...group, display_name: displayName };
  await updateScimGroup(scope.ctx.db, group.id, { display_name: displayName });
  await addMembers(scope, renamed, members);
  return renamed;
}

/** `PUT /Groups/{id}` (RFC 7644 §3.5.1): replaces displayName, externalId and members. */
export async function replaceScimGroup(scope: ScimScope, id: string, body: unknown): Promise<Record<string, unknown>> {
  const b = objectBody(body);
  const displayName = boundedString(b.displayName, 'displayName');
  const externalId = optionalString(b.externalId, 'externalId');
  return scope.ctx.transaction(async (tx) => {
    const inner = { ...scope, ctx: tx };
    let group = await getScimGroup(inner, id);
    const ids = await memberIds(inner, b.members);
    group = await rename(inner, group, displayName);
    await setMembers(inner, group, ids);
    await updateScimGroup(tx.db, id, { external_id: externalId, updated_at: tx.now });
    await emitWebhookEvent(tx, scope.project.id, 'scim_group.updated', { team_id: scope.teamId, group_id: id, display_name: displayName });
    return toScimGroup(inner, { ...group, external_id: externalId, updated_at: tx.now });
  });
}

const MEMBER_FILTER = /^members\[\s*value\s+eq\s+"([^"]{1,256})"\s*\]$/i;

/**
 * `PATCH /Groups/{id}` (RFC 7644 §3.5.2): `add` / `replace` / `remove` of `members` (a remove
 * may name one member by `members[value eq "<id>"]`, or list them in its value, as Entra ID does),
 * `replace` of `displayName` and `externalId`. 400 `invalidPath` for other paths.
 */
export async function patchScimGroup(scope: ScimScope, id: string, body: unknown): Promise<Record<string, unknown>> {
  const operations = readPatchBody(body);
  return scope.ctx.transaction(async (tx) => {
    const inner = { ...scope, ctx: tx };
    let group = await getScimGroup(inner, id);
    for (const operation of operations) {
      const filtered = operation.path ? MEMBER_FILTER.exec(operation.path) : null;
      if (filtered && operation.op === 'remove') {
        await removeMembers(inner, group, [filtered[1]!]);
        continue;
      }
      for (const [rawPath, value] of operation.op === 'remove'
        ? [[operation.path!, operation.value] as [string, unknown]]
        : assignments(operation)) {
        const path = rawPath.replace(/^urn:ietf:params:scim:schemas:core:2\.0:group:/i, '').toLowerCase();
        if (path === 'members') {
          if (operation.op === 'add') await addMembers(inner, group, await memberIds(inner, value));
          else if (operation.op === 'replace') await setMembers(inner, group, await memberIds(inner, value));
          else {
            const ids =
              value === undefined
                ? await listGroupMemberIds(tx.db, group.id)
                : (Array.isArray(value) ? value : []).map((m) => boundedString(objectBody(m).value, 'members.value'));
            await removeMembers(inner, group, ids);
          }
        } else if (path === 'displayname') {
          if (operation.op === 'remove') throw new ScimError(400, 'displayName cannot be removed.', 'mutability');
          group = await rename(inner, group, boundedString(value, 'displayName'));
        } else if (path === 'externalid') {
          const externalId = operation.op === 'remove' ? null : optionalString(value, 'externalId');
          await updateScimGroup(tx.db, id, { external_id: externalId });
          group = { ...group, external_id: externalId };
        } else if (path !== 'id' && path !== 'schemas') {
          throw new ScimError(400, `Unsupported path ${rawPath}.`, 'invalidPath');
        }
      }
    }
    await updateScimGroup(tx.db, id, { updated_at: tx.now });
    await emitWebhookEvent(tx, scope.project.id, 'scim_group.updated', {
      team_id: scope.teamId,
      group_id: id,
      display_name: group.display_name,
    });
    return toScimGroup(inner, { ...group, updated_at: tx.now });
  });
}

/** `DELETE /Groups/{id}` (RFC 7644 §3.6): members lose the group's permission; the group goes. */
export async function deleteScimGroupResource(scope: ScimScope, id: string): Promise<void> {
  await scope.ctx.transaction(async (tx) => {
    const inner = { ...scope, ctx: tx };
    const group = await getScimGroup(inner, id);
    await removeMembers(inner, group, await listGroupMemberIds(tx.db, id));
    await deleteScimGroup(tx.db, id);
    await emitWebhookEvent(tx, scope.project.id, 'scim_group.deleted', {
      team_id: scope.teamId,
      group_id: id,
      display_name: group.display_name,
    });
  });
}
