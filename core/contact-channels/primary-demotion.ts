import { uuid } from '../lib/random.ts';
import { onPrimaryEmailChanged } from '../users/index.ts';
import { deleteChannelRow, findChannelRowByValue, insertChannelRow } from './queries.ts';

let registered = false;

/**
 * When a user's primary email changes or is removed, the old address stays as a non-primary
 * channel with its verification and sign-in flags (upstream demotes the primary channel rather
 * than deleting it); a non-primary channel holding the new address is merged into the primary.
 */
export function registerPrimaryEmailDemotion(): void {
  if (registered) return;
  registered = true;
  onPrimaryEmailChanged(async (ctx, projectId, before, after) => {
    if (after.primary_email) {
      const merged = await findChannelRowByValue(ctx.db, projectId, after.id, 'email', after.primary_email);
      if (merged) await deleteChannelRow(ctx.db, projectId, merged.id);
    }
    if (!before.primary_email || await findChannelRowByValue(ctx.db, projectId, before.id, 'email', before.primary_email)) return;
    await insertChannelRow(ctx.db, {
      id: uuid(), project_id: projectId, user_id: before.id, type: 'email', value: before.primary_email,
      is_verified: before.primary_email_verified, used_for_auth: before.primary_email_auth_enabled, created_at: ctx.now,
    });
  });
}
