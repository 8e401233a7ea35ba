import type { Kysely } from 'kysely';
import type { BotChallengeSecretsTable, Database } from '../storage/tables.ts';

/** The sealed Turnstile secret of a project branch, or null. */
export async function findBotChallengeSecret(
  db: Kysely<Database>,
  projectId: string,
  branchId: string,
): Promise<BotChallengeSecretsTable | null> {
  return (
    (await db
      .selectFrom('bot_challenge_secrets')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('branch_id', '=', branchId)
      .executeTakeFirst()) ?? null
  );
}

/** Stores (or replaces) the sealed Turnstile secret of a project branch. */
export async function upsertBotChallengeSecret(db: Kysely<Database>, row: BotChallengeSecretsTable): Promise<void> {
  await db
    .insertInto('bot_challenge_secrets')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['project_id', 'branch_id']).doUpdateSet({
        turnstile_secret_sealed: row.turnstile_secret_sealed,
        turnstile_secret_hint: row.turnstile_secret_hint,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

/** Removes the Turnstile secret of a project branch. */
export async function deleteBotChallengeSecret(db: Kysely<Database>, projectId: string, branchId: string): Promise<void> {
  await db.deleteFrom('bot_challenge_secrets').where('project_id', '=', projectId).where('branch_id', '=', branchId).execute();
}
