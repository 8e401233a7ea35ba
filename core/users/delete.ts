import type { OperationContext } from '../operations/define.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { listUserTeamIds } from '../teams/index.ts';
import { deleteUser } from './queries.ts';

/**
 * Deletes a user with their sessions and memberships (cascades) and records the `user.deleted`
 * webhook event `{id, teams: [{id}]}` (upstream's payload: the teams the user was in), in one
 * transaction.
 */
export async function deleteUserAndNotify(ctx: OperationContext, projectId: string, userId: string): Promise<void> {
  await ctx.transaction(async (tx) => {
    const teamIds = await listUserTeamIds(tx.db, projectId, userId);
    await deleteUser(tx.db, projectId, userId);
    await emitWebhookEvent(tx, projectId, 'user.deleted', { id: userId, teams: teamIds.map((id) => ({ id })) });
  });
}
