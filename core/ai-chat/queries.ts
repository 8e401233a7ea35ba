import { sql, type Kysely, type Selectable } from 'kysely';
import type { AiChatThreadsTable, Database } from '../storage/tables.ts';

export type ThreadRow = Selectable<AiChatThreadsTable>;

/** The thread `id` of `projectId`, or null (tenant-scoped: another project's id is null). */
export async function findThread(db: Kysely<Database>, projectId: string, id: string): Promise<ThreadRow | null> {
  const row = await db
    .selectFrom('ai_chat_threads')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Creates the thread unless it exists (a concurrent first message may have made it), then reads it.
 */
export async function ensureThread(db: Kysely<Database>, row: ThreadRow): Promise<ThreadRow> {
  await db
    .insertInto('ai_chat_threads')
    .values(row)
    .onConflict((oc) => oc.columns(['project_id', 'id']).doNothing())
    .execute();
  return (await findThread(db, row.project_id, row.id))!;
}

/** The owner's threads in the project, most recently used first (at most `limit`). */
export async function listThreads(db: Kysely<Database>, projectId: string, owner: string, limit: number): Promise<ThreadRow[]> {
  return db
    .selectFrom('ai_chat_threads')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('owner', '=', owner)
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Deletes a thread and (by cascade) its messages. */
export async function deleteThread(db: Kysely<Database>, projectId: string, id: string): Promise<void> {
  await db.deleteFrom('ai_chat_threads').where('project_id', '=', projectId).where('id', '=', id).execute();
}

/**
 * Appends messages (JSON values) to a thread after its last one and touches `updated_at`.
 * Call inside a transaction: the next `seq` is read, then written.
 */
export async function appendMessages(
  db: Kysely<Database>,
  projectId: string,
  threadId: string,
  contents: readonly unknown[],
  now: number,
): Promise<void> {
  if (contents.length === 0) return;
  const last = await db
    .selectFrom('ai_chat_messages')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('project_id', '=', projectId)
    .where('thread_id', '=', threadId)
    .executeTakeFirst();
  const start = Number(last?.seq ?? 0) + 1;
  await db
    .insertInto('ai_chat_messages')
    .values(
      contents.map((content, i) => ({
        project_id: projectId,
        thread_id: threadId,
        seq: start + i,
        content: JSON.stringify(content),
        created_at: now,
      })),
    )
    .execute();
  await db.updateTable('ai_chat_threads').set({ updated_at: now }).where('project_id', '=', projectId).where('id', '=', threadId).execute();
}

/** A thread's messages in order, as stored JSON values. */
export async function listMessages(db: Kysely<Database>, projectId: string, threadId: string): Promise<unknown[]> {
  const rows = await db
    .selectFrom('ai_chat_messages')
    .select('content')
    .where('project_id', '=', projectId)
    .where('thread_id', '=', threadId)
    .orderBy('seq')
    .execute();
  return rows.map((r) => JSON.parse(r.content) as unknown);
}

/** Tokens the project spent on `day` (`YYYY-MM-DD`, UTC). */
export async function tokensUsed(db: Kysely<Database>, projectId: string, day: string): Promise<number> {
  const row = await db
    .selectFrom('ai_token_usage')
    .select('tokens')
    .where('project_id', '=', projectId)
    .where('day', '=', day)
    .executeTakeFirst();
  return Number(row?.tokens ?? 0);
}

/** Adds `tokens` to the project's count for `day` (one atomic upsert). */
export async function addTokens(db: Kysely<Database>, projectId: string, day: string, tokens: number): Promise<void> {
  await db
    .insertInto('ai_token_usage')
    .values({ project_id: projectId, day, tokens })
    .onConflict((oc) => oc.columns(['project_id', 'day']).doUpdateSet({ tokens: sql`ai_token_usage.tokens + excluded.tokens` }))
    .execute();
}

/** A server setting's stored value, or null. */
export async function readServerSetting(db: Kysely<Database>, key: string): Promise<string | null> {
  const row = await db.selectFrom('server_settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? null;
}

/** Stores a server setting, or removes it when `value` is null. */
export async function writeServerSetting(db: Kysely<Database>, key: string, value: string | null): Promise<void> {
  if (value === null) {
    await db.deleteFrom('server_settings').where('key', '=', key).execute();
    return;
  }
  await db
    .insertInto('server_settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/** Stores a server setting unless it exists (the first writer wins). */
export async function insertServerSettingOnce(db: Kysely<Database>, key: string, value: string): Promise<void> {
  await db
    .insertInto('server_settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

/** The id of the dashboard's first owner: the earliest non-anonymous internal-project user, or null. */
export async function findFirstOwnerId(db: Kysely<Database>): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('project_id', '=', 'internal')
    .where('is_anonymous', '=', false)
    .orderBy('signed_up_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}
