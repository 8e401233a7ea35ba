import { sql, type Kysely } from 'kysely';
import type { Database, SignUpFactsTable, SignUpRuleTriggerCountsTable } from '../storage/tables.ts';

/** Adds one to the hourly count of each (rule, action), in one upsert per row (both dialects). */
export async function incrementTriggerCounts(
  db: Kysely<Database>,
  rows: ReadonlyArray<Omit<SignUpRuleTriggerCountsTable, 'count'>>,
): Promise<void> {
  for (const row of rows) {
    await db
      .insertInto('sign_up_rule_trigger_counts')
      .values({ ...row, count: 1 })
      .onConflict((oc) =>
        oc
          .columns(['project_id', 'branch_id', 'rule_id', 'action', 'hour_start'])
          .doUpdateSet({ count: sql`sign_up_rule_trigger_counts.count + 1` }),
      )
      .execute();
  }
}

/** Every hourly count of a project's branch, oldest first. */
export async function listTriggerCounts(
  db: Kysely<Database>,
  projectId: string,
  branchId: string,
): Promise<SignUpRuleTriggerCountsTable[]> {
  const rows = await db
    .selectFrom('sign_up_rule_trigger_counts')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('branch_id', '=', branchId)
    .orderBy('hour_start')
    .orderBy('rule_id')
    .execute();
  return rows.map((r) => ({ ...r, hour_start: Number(r.hour_start), count: Number(r.count) }));
}

/** Remembers a sign-up's hashed facts (one row per user; a repeated call keeps the first). */
export async function insertSignUpFacts(db: Kysely<Database>, row: SignUpFactsTable): Promise<void> {
  await db
    .insertInto('sign_up_facts')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

/**
 * How many of a project's sign-ups since `since` (epoch ms) share `hash` in `column`, counting at
 * most `cap` (the scores saturate, so larger counts need not be read).
 */
export async function countRecentSignUps(
  db: Kysely<Database>,
  projectId: string,
  column: 'address_hash' | 'email_base_hash',
  hash: string,
  since: number,
  cap: number,
): Promise<number> {
  const rows = await db
    .selectFrom('sign_up_facts')
    .select('user_id')
    .where('project_id', '=', projectId)
    .where(column, '=', hash)
    .where('signed_up_at', '>=', since)
    .limit(cap)
    .execute();
  return rows.length;
}
