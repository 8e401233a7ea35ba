import type { Kysely, Selectable } from 'kysely';
import type { CliAuthAttemptsTable, Database } from '../storage/tables.ts';

export type CliAuthAttemptRow = Selectable<CliAuthAttemptsTable>;

export async function insertCliAuthAttempt(db: Kysely<Database>, row: CliAuthAttemptRow): Promise<void> {
  await db.insertInto('cli_auth_attempts').values(row).execute();
}

export async function findAttemptByPollingHash(db: Kysely<Database>, projectId: string, hash: string): Promise<CliAuthAttemptRow | null> {
  return (
    (await db
      .selectFrom('cli_auth_attempts')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('polling_code_hash', '=', hash)
      .executeTakeFirst()) ?? null
  );
}

export async function findAttemptByLoginHash(db: Kysely<Database>, projectId: string, hash: string): Promise<CliAuthAttemptRow | null> {
  return (
    (await db
      .selectFrom('cli_auth_attempts')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('login_code_hash', '=', hash)
      .executeTakeFirst()) ?? null
  );
}

/** Records the confirming user on a still-pending attempt; true when this call did (one winner). */
export async function confirmAttempt(db: Kysely<Database>, projectId: string, id: string, userId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('cli_auth_attempts')
    .set({ user_id: userId, completed_at: now, anon_refresh_token_id: null })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('user_id', 'is', null)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Detaches the anonymous session from a pending attempt (claimed once); true when this call did. */
export async function detachAnonSession(
  db: Kysely<Database>,
  projectId: string,
  id: string,
  anonSessionId: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('cli_auth_attempts')
    .set({ anon_refresh_token_id: null })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('anon_refresh_token_id', '=', anonSessionId)
    .where('user_id', 'is', null)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks a confirmed attempt used; true when this call did (the one poll that gets the token). */
export async function markAttemptUsed(db: Kysely<Database>, projectId: string, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('cli_auth_attempts')
    .set({ used_at: now })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('user_id', 'is not', null)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
