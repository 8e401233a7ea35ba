import type { Kysely, Selectable, Updateable } from 'kysely';
import { takeLease } from '../storage/leased-rows.ts';
import type { Database, EmailsTable, EmailSourcesTable } from '../storage/tables.ts';

/** An outbox / sent-email row as stored. */
export type EmailRow = Selectable<EmailsTable>;

export async function insertEmail(db: Kysely<Database>, row: EmailRow): Promise<void> {
  await db.insertInto('emails').values(row).execute();
}

/**
 * Takes the lease of one due email until `lockedUntil` (core/storage/leased-rows.ts: only one
 * process can win it). Returns the row when this caller holds the lease, else null.
 */
export async function claimEmail(db: Kysely<Database>, id: string, now: number, lockedUntil: number): Promise<EmailRow | null> {
  if (!(await takeLease(db, 'emails', id, now, lockedUntil))) return null;
  const row = await db.selectFrom('emails').selectAll().where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

/** The project's emails, newest first. */
export async function listProjectEmails(db: Kysely<Database>, projectId: string, limit = 1000): Promise<EmailRow[]> {
  return db
    .selectFrom('emails')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

// ── Themes, templates and drafts ─────────────────────────────────────────────────────────────

export type EmailSourceTable = 'email_themes' | 'email_templates' | 'email_drafts';
export type EmailSourceRow = Selectable<EmailSourcesTable>;

export async function listSources(db: Kysely<Database>, table: EmailSourceTable, projectId: string): Promise<EmailSourceRow[]> {
  return db.selectFrom(table).selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('id').execute();
}

export async function findSource(
  db: Kysely<Database>,
  table: EmailSourceTable,
  projectId: string,
  id: string,
): Promise<EmailSourceRow | null> {
  const row = await db.selectFrom(table).selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

export async function insertSource(db: Kysely<Database>, table: EmailSourceTable, row: EmailSourceRow): Promise<void> {
  await db.insertInto(table).values(row).execute();
}

export async function updateSource(
  db: Kysely<Database>,
  table: EmailSourceTable,
  projectId: string,
  id: string,
  changes: Updateable<EmailSourcesTable>,
): Promise<void> {
  await db.updateTable(table).set(changes).where('project_id', '=', projectId).where('id', '=', id).execute();
}

export async function deleteSource(db: Kysely<Database>, table: EmailSourceTable, projectId: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom(table).where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

// ── Recipients (read-only view of users for bulk sending) ────────────────────────────────────

/** Recipient fields of users; all of the project's non-anonymous users when `userIds` is null. */
export async function findRecipients(
  db: Kysely<Database>,
  projectId: string,
  userIds: string[] | null,
): Promise<Array<{ id: string; primary_email: string | null; display_name: string | null }>> {
  let q = db.selectFrom('users').select(['id', 'primary_email', 'display_name']).where('project_id', '=', projectId);
  if (userIds === null) return q.where('is_anonymous', '=', false).orderBy('signed_up_at').orderBy('id').execute();
  if (userIds.length === 0) return [];
  q = q.where('id', 'in', userIds);
  return q.execute();
}

/**
 * Outbox retention: drops the sealed live content of emails created before
 * `sealedBefore` (their codes have expired), and deletes emails created before `deleteBefore`
 * that are no longer waiting for delivery (sent, failed, or kept in the built-in outbox).
 */
export async function pruneEmails(db: Kysely<Database>, sealedBefore: number, deleteBefore: number): Promise<void> {
  await db
    .updateTable('emails')
    .set({ sealed_body: null })
    .where('created_at', '<', sealedBefore)
    .where('sealed_body', 'is not', null)
    .execute();
  await db.deleteFrom('emails').where('created_at', '<', deleteBefore).where('status', 'in', ['sent', 'failed', 'outbox']).execute();
}

// ── Outbox API ───────────────────────────────────────────────────────────────────────────────

/** The email `id` of `projectId`, or null. */
export async function findEmail(db: Kysely<Database>, projectId: string, id: string): Promise<EmailRow | null> {
  const row = await db.selectFrom('emails').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

/**
 * One page of the project's outbox, newest first (ties by id), starting at the email `cursor`
 * (inclusive, as upstream's cursor), optionally only rows whose stored status is in `statuses`.
 * Returns `limit + 1` rows at most so the caller can tell whether there is a next page.
 */
export async function listOutboxPage(
  db: Kysely<Database>,
  projectId: string,
  options: { limit: number; cursor?: EmailRow; statuses?: string[] },
): Promise<EmailRow[]> {
  let q = db.selectFrom('emails').selectAll().where('project_id', '=', projectId);
  if (options.statuses) q = q.where('status', 'in', options.statuses.length ? options.statuses : ['']);
  const c = options.cursor;
  if (c)
    q = q.where((eb) => eb.or([eb('created_at', '<', c.created_at), eb.and([eb('created_at', '=', c.created_at), eb('id', '>=', c.id)])]));
  return q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'asc')
    .limit(options.limit + 1)
    .execute();
}

/** Changes an email only while its stored status is one of `from`; returns whether it did. */
export async function updateEmailIfStatus(
  db: Kysely<Database>,
  projectId: string,
  id: string,
  from: string[],
  changes: Updateable<EmailsTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('emails')
    .set(changes)
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('status', 'in', from)
    .where('locked_until', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Counts of the project's sent and failed emails since `since` (epoch ms). */
export async function countSentSince(db: Kysely<Database>, projectId: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('emails')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', projectId)
    .where('status', '=', 'sent')
    .where('sent_at', '>=', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A failed email with what the digest lists: its project, subject and recipient. */
export interface FailedEmailRow {
  project_id: string;
  subject: string;
  to_email: string;
  user_id: string | null;
  recipient: string | null;
}

/** Emails whose delivery failed (status `failed`) created since `since`, oldest first. */
export async function listFailedEmailsSince(db: Kysely<Database>, since: number): Promise<FailedEmailRow[]> {
  return db
    .selectFrom('emails')
    .select(['project_id', 'subject', 'to_email', 'user_id', 'recipient'])
    .where('status', '=', 'failed')
    .where('created_at', '>=', since)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * The primary emails of the dashboard users in each project's owner team (the internal project's
 * team named by `projects.owner_team_id`), by project id; a project without owners is absent.
 */
export async function ownerEmailsOf(
  db: Kysely<Database>,
  internalProjectId: string,
  projectIds: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (projectIds.length === 0) return out;
  const rows = await db
    .selectFrom('projects as p')
    .innerJoin('team_members as m', (j) => j.onRef('m.team_id', '=', 'p.owner_team_id').on('m.project_id', '=', internalProjectId))
    .innerJoin('users as u', (j) => j.onRef('u.id', '=', 'm.user_id').on('u.project_id', '=', internalProjectId))
    .select(['p.id as project_id', 'u.primary_email as email'])
    .where('p.id', 'in', [...projectIds])
    .where('u.primary_email', 'is not', null)
    .orderBy('m.created_at')
    .execute();
  for (const row of rows) {
    const list = out.get(row.project_id) ?? [];
    list.push(row.email!);
    out.set(row.project_id, list);
  }
  return out;
}

/** The end (epoch ms) of the project's latest capacity boost, or null. */
export async function findCapacityBoost(db: Kysely<Database>, projectId: string): Promise<number | null> {
  const row = await db.selectFrom('email_capacity_boosts').select('expires_at').where('project_id', '=', projectId).executeTakeFirst();
  return row ? Number(row.expires_at) : null;
}

/** Records a capacity boost ending at `expiresAt`, replacing the project's earlier one. */
export async function saveCapacityBoost(db: Kysely<Database>, projectId: string, expiresAt: number): Promise<void> {
  await db
    .insertInto('email_capacity_boosts')
    .values({ project_id: projectId, expires_at: expiresAt })
    .onConflict((oc) => oc.column('project_id').doUpdateSet({ expires_at: expiresAt }))
    .execute();
}

/** Queued emails never attempted though due before `dueBefore` (any project). */
export async function countOverdueEmails(db: Kysely<Database>, dueBefore: number): Promise<number> {
  const row = await db
    .selectFrom('emails')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'pending')
    .where('attempt_count', '=', 0)
    .where('next_attempt_at', '<', dueBefore)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
