import type { Kysely, Selectable } from 'kysely';
import type { Database, MfaRecoveryCodesTable } from '../storage/tables.ts';

export type RecoveryCodeRow = Selectable<MfaRecoveryCodesTable>;

/**
 * Records `step` as the user's last spent TOTP step unless a step at or after it was already
 * spent. Atomic on both dialects (one conditional UPDATE after an idempotent INSERT), so two
 * concurrent sign-ins with one code cannot both succeed.
 *
 * @returns true when this call spent the step.
 */
export async function claimTotpStep(db: Kysely<Database>, projectId: string, userId: string, step: number): Promise<boolean> {
  await db
    .insertInto('totp_used_steps')
    .values({ user_id: userId, project_id: projectId, last_step: -1 })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  const result = await db
    .updateTable('totp_used_steps')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where('project_id', '=', projectId)
    .where('last_step', '<', step)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Replaces every recovery code of the user with `rows`. */
export async function replaceRecoveryCodes(
  db: Kysely<Database>,
  projectId: string,
  userId: string,
  rows: RecoveryCodeRow[],
): Promise<void> {
  await db.deleteFrom('mfa_recovery_codes').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
  if (rows.length > 0) await db.insertInto('mfa_recovery_codes').values(rows).execute();
}

/** Marks the user's unused recovery code with `codeHash` used; true when this call marked it. */
export async function useRecoveryCode(
  db: Kysely<Database>,
  projectId: string,
  userId: string,
  codeHash: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('mfa_recovery_codes')
    .set({ used_at: now })
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** How many unused recovery codes the user has left. */
export async function countUnusedRecoveryCodes(db: Kysely<Database>, projectId: string, userId: string): Promise<number> {
  const row = await db
    .selectFrom('mfa_recovery_codes')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Deletes the user's recovery codes and spent-step record (when TOTP is removed). */
export async function deleteSecondFactorState(db: Kysely<Database>, projectId: string, userId: string): Promise<void> {
  await db.deleteFrom('mfa_recovery_codes').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
  await db.deleteFrom('totp_used_steps').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
}
