import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, VerificationCodesTable } from '../storage/tables.ts';

/** A verification-code row as stored. */
export type VerificationCodeRow = Selectable<VerificationCodesTable>;

export async function insertVerificationCode(db: Kysely<Database>, row: VerificationCodeRow): Promise<void> {
  await db.insertInto('verification_codes').values(row).execute();
}

/**
 * Counts one attempt against the project's codes of `purpose` sharing `nonceHash`, only while
 * fewer than `max` were counted: one conditional `update … set attempt_count = attempt_count + 1
 * where … and attempt_count < max returning …`, so concurrent attempts (on PostgreSQL the row lock
 * re-checks the condition; SQLite has one writer) are never counted past `max`.
 *
 * @returns `counted` when this attempt may be evaluated; `exhausted` when the codes used up their
 *   attempts; `none` when no code shares the nonce (nothing to count against).
 */
export async function claimCodeAttempt(
  db: Kysely<Database>,
  projectId: string,
  purpose: string,
  nonceHash: string,
  max: number,
): Promise<'counted' | 'exhausted' | 'none'> {
  const counted = await db
    .updateTable('verification_codes')
    .set({ attempt_count: sql`attempt_count + 1` })
    .where('project_id', '=', projectId)
    .where('purpose', '=', purpose)
    .where('nonce_hash', '=', nonceHash)
    .where('attempt_count', '<', max)
    .returning('id')
    .execute();
  if (counted.length > 0) return 'counted';
  const any = await db
    .selectFrom('verification_codes')
    .select('id')
    .where('project_id', '=', projectId)
    .where('purpose', '=', purpose)
    .where('nonce_hash', '=', nonceHash)
    .limit(1)
    .executeTakeFirst();
  return any ? 'exhausted' : 'none';
}

export async function findCodeByHash(
  db: Kysely<Database>,
  projectId: string,
  purpose: string,
  codeHash: string,
): Promise<VerificationCodeRow | null> {
  const row = await db
    .selectFrom('verification_codes')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('purpose', '=', purpose)
    .where('code_hash', '=', codeHash)
    .executeTakeFirst();
  return row ?? null;
}

/** Marks the code used unless it already is; true when this call marked it. */
export async function markCodeUsed(db: Kysely<Database>, projectId: string, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('verification_codes')
    .set({ used_at: now })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Unused, unexpired codes of `purpose`, optionally narrowed by subject, user or email; newest first. */
export async function listActiveCodes(
  db: Kysely<Database>,
  projectId: string,
  purpose: string,
  now: number,
  filter: { subjectId?: string; userId?: string; email?: string },
): Promise<VerificationCodeRow[]> {
  let q = db
    .selectFrom('verification_codes')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now);
  if (filter.subjectId !== undefined) q = q.where('subject_id', '=', filter.subjectId);
  if (filter.userId !== undefined) q = q.where('user_id', '=', filter.userId);
  if (filter.email !== undefined) q = q.where('email', '=', filter.email);
  return q.orderBy('created_at', 'desc').orderBy('id').execute();
}

export async function findCodeById(
  db: Kysely<Database>,
  projectId: string,
  purpose: string,
  id: string,
): Promise<VerificationCodeRow | null> {
  const row = await db
    .selectFrom('verification_codes')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('purpose', '=', purpose)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

/** Deletes one code; true when it existed. */
export async function deleteCodeById(db: Kysely<Database>, projectId: string, purpose: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('verification_codes')
    .where('project_id', '=', projectId)
    .where('purpose', '=', purpose)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Marks every unused code of `purpose` for `userId` used at `now`; returns how many. */
export async function markUserCodesUsed(
  db: Kysely<Database>,
  projectId: string,
  purpose: string,
  userId: string,
  now: number,
): Promise<number> {
  const result = await db
    .updateTable('verification_codes')
    .set({ used_at: now })
    .where('project_id', '=', projectId)
    .where('purpose', '=', purpose)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Whether any code of `purpose` (used or not) was issued for `email` at or before `at` (epoch ms). */
export async function codeIssuedForEmailBy(
  db: Kysely<Database>,
  projectId: string,
  purpose: string,
  email: string,
  at: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('verification_codes')
    .select('id')
    .where('project_id', '=', projectId)
    .where('purpose', '=', purpose)
    .where('email', '=', email)
    .where('created_at', '<=', at)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
