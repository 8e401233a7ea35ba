import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';

/** The user's stored preferences as `category_id → enabled`. */
export async function readPreferences(db: Kysely<Database>, projectId: string, userId: string): Promise<Map<string, boolean>> {
  const rows = await db
    .selectFrom('notification_preferences')
    .select(['category_id', 'enabled'])
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .execute();
  return new Map(rows.map((r) => [r.category_id, r.enabled]));
}

/** Disabled category ids of many users at once: `user_id → set of category ids`. */
export async function readDisabled(db: Kysely<Database>, projectId: string, userIds: string[]): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db
      .selectFrom('notification_preferences')
      .select(['user_id', 'category_id'])
      .where('project_id', '=', projectId)
      .where('user_id', 'in', userIds.slice(i, i + 500))
      .where('enabled', '=', false)
      .execute();
    for (const r of rows) {
      if (!out.has(r.user_id)) out.set(r.user_id, new Set());
      out.get(r.user_id)!.add(r.category_id);
    }
  }
  return out;
}

export async function upsertPreference(
  db: Kysely<Database>,
  projectId: string,
  userId: string,
  categoryId: string,
  enabled: boolean,
): Promise<void> {
  await db
    .insertInto('notification_preferences')
    .values({ project_id: projectId, user_id: userId, category_id: categoryId, enabled: enabled })
    .onConflict((oc) => oc.columns(['project_id', 'user_id', 'category_id']).doUpdateSet({ enabled: enabled }))
    .execute();
}
