import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { deleteTeamGrant, grantTeamPermissionIds, listTeamGrants } from '../permissions/index.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import type { SsoConnection } from './connection.ts';

/** At most this many groups are read from one sign-in (an IdP listing thousands is cut short). */
const MAX_GROUPS = 500;

/**
 * The group names or values of an attribute or claim: a string, or an array of strings (other
 * values are skipped), trimmed, each at most 256 characters.
 */
export function groupValues(raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  const out: string[] = [];
  for (const item of list.slice(0, MAX_GROUPS)) {
    if (typeof item !== 'string') continue;
    const value = item.trim();
    if (value !== '' && value.length <= 256) out.push(value);
  }
  return [...new Set(out)];
}

/**
 * Applies a connection's group mapping to the member at a sign-in: every team permission mapped
 * from one of `groups` is granted, every other permission the mapping names is revoked (a direct
 * grant of it; permissions the mapping does not name are left alone). Nothing happens when the
 * connection maps no groups. Emits `team_permission.created|deleted` for what changed. Inside the
 * sign-in's transaction.
 */
export async function applyGroupPermissions(
  tx: OperationContext,
  project: Project,
  connection: SsoConnection,
  userId: string,
  groups: readonly string[],
): Promise<void> {
  const mapping = connection.groupPermissions;
  if (mapping === null) return;
  const managed = new Set(Object.values(mapping).flat());
  const wanted = new Set(groups.flatMap((g) => (Object.hasOwn(mapping, g) ? mapping[g]! : [])));
  const direct = async () =>
    new Set((await listTeamGrants(tx.db, project.id, { teamId: connection.teamId, userId, recursive: false })).map((g) => g.id));
  const before = await direct();
  await grantTeamPermissionIds(
    tx.db,
    project,
    connection.teamId,
    userId,
    [...wanted].filter((id) => !before.has(id)),
    tx.now,
  );
  for (const id of managed) if (!wanted.has(id) && before.has(id)) await deleteTeamGrant(tx.db, project.id, connection.teamId, userId, id);
  const after = await direct();
  const data = (id: string) => ({ id, user_id: userId, team_id: connection.teamId });
  for (const id of after) if (!before.has(id)) await emitWebhookEvent(tx, project.id, 'team_permission.created', data(id));
  for (const id of before) if (!after.has(id)) await emitWebhookEvent(tx, project.id, 'team_permission.deleted', data(id));
}
