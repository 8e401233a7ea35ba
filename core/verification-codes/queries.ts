import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, VerificationCodesTable } from '../storage/tables.ts';

/** A verification-code row as stored. */
export type VerificationCodeRow = Selectable<VerificationCodesTable>;

export async function insertVerificationCode(db: Kysely<Database>, row: VerificationCodeRow): Promise<void> {
  await db.insertInto('verification_codes').values(row).execute();
}

/** The highest attempt count among the project's codes of `purpose` sharing `nonceHash`, or null when none. */
export async function maxAttemptsForNonce(db: Kysely<Database>, projectId: string, purpose: string, nonceHash: string): Promise<number | null> {
  const row = await db.selectFrom('verification_codes').select((eb) => eb.fn.max('attempt_count').as('max'))
    .where('project_id', '=', projectId).where('purpose', '=', purpose).where('nonce_hash', '=', nonceHash)
    .executeTakeFirst();
  return row?.max === null || row?.max === undefined ? null : Number(row.max);
}

/** Adds one attempt to every code of `purpose` sharing `nonceHash`. */
export async function incrementAttempts(db: Kysely<Database>, projectId: string, purpose: string, nonceHash: string): Promise<void> {
  await db.updateTable('verification_codes').set({ attempt_count: sql`attempt_count + 1` })
    .where('project_id', '=', projectId).where('purpose', '=', purpose).where('nonce_hash', '=', nonceHash)
    .execute();
}

export async function findCodeByHash(db: Kysely<Database>, projectId: string, purpose: string, codeHash: string): Promise<VerificationCodeRow | null> {
  const row = await db.selectFrom('verification_codes').selectAll()
    .where('project_id', '=', projectId).where('purpose', '=', purpose).where('code_hash', '=', codeHash)
    .executeTakeFirst();
  return row ?? null;
}

/** Marks the code used unless it already is; true when this call marked it. */
export async function markCodeUsed(db: Kysely<Database>, projectId: string, id: string, now: number): Promise<boolean> {
  const result = await db.updateTable('verification_codes').set({ used_at: now })
    .where('project_id', '=', projectId).where('id', '=', id).where('used_at', 'is', null)
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
  let q = db.selectFrom('verification_codes').selectAll()
    .where('project_id', '=', projectId).where('purpose', '=', purpose)
    .where('used_at', 'is', null).where('expires_at', '>', now);
  if (filter.subjectId !== undefined) q = q.where('subject_id', '=', filter.subjectId);
  if (filter.userId !== undefined) q = q.where('user_id', '=', filter.userId);
  if (filter.email !== undefined) q = q.where('email', '=', filter.email);
  return q.orderBy('created_at', 'desc').orderBy('id').execute();
}

export async function findCodeById(db: Kysely<Database>, projectId: string, purpose: string, id: string): Promise<VerificationCodeRow | null> {
  const row = await db.selectFrom('verification_codes').selectAll()
    .where('project_id', '=', projectId).where('purpose', '=', purpose).where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

/** Deletes one code; true when it existed. */
export async function deleteCodeById(db: Kysely<Database>, projectId: string, purpose: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('verification_codes')
    .where('project_id', '=', projectId).where('purpose', '=', purpose).where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Marks every unused code of `purpose` for `userId` used at `now`; returns how many. */
export async function markUserCodesUsed(db: Kysely<Database>, projectId: string, purpose: string, userId: string, now: number): Promise<number> {
  const result = await db.updateTable('verification_codes').set({ used_at: now })
    .where('project_id', '=', projectId).where('purpose', '=', purpose).where('user_id', '=', userId).where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Whether any code of `purpose` (used or not) was issued for `email` at or before `at` (epoch ms). */
export async function codeIssuedForEmailBy(db: Kysely<Database>, projectId: string, purpose: string, email: string, at: number): Promise<boolean> {
  const row = await db.selectFrom('verification_codes').select('id')
    .where('project_id', '=', projectId).where('purpose', '=', purpose).where('email', '=', email).where('created_at', '<=', at)
    .limit(1).executeTakeFirst();
  return row !== undefined;
}
