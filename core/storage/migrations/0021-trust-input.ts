import type { Kysely, Migration } from 'kysely';
import { normalizeEmail } from '../../lib/email.ts';

const BATCH = 2_000;

/**
 * Email addresses are compared in one normalized form (core/lib/email.ts
 * normalizeEmail: width mapping, lowercase, NFC), and the stored address is that form, so the
 * unique index `users_project_auth_email` (project, primary_email where auth-enabled) holds
 * uniqueness on it. Rows stored before (`ｕｓｅｒ@example.com`, an NFD `é`) are rewritten to it,
 * users in sign-up order, so the earliest account keeps the address. A row whose normal form an
 * earlier auth-enabled account of the project already holds (a variant account created through
 * the gap) keeps its stored text: it can no longer be reached by signing in with that address,
 * only through its other methods, and admins see it as it was stored (docs/security.md).
 * Email contact channels get the same treatment (their uniqueness among auth channels is checked
 * in code, not by an index).
 */
/** One table's email column to rewrite: rows in `order` (oldest first), and who already holds a normal form. */
interface Target {
  table: 'users' | 'contact_channels';
  column: 'primary_email' | 'value';
  order: 'signed_up_at' | 'created_at';
  /** Restricts the rows considered (contact channels: email ones). */
  scope(query: any): any;
  /** True when the row's normal form must stay unique (auth-enabled). */
  unique(row: any): boolean;
  /** Another row that already holds `normal` among the unique ones, or undefined. */
  holder(db: Kysely<any>, row: any, normal: string): Promise<unknown>;
}

/** Rewrites `target`'s addresses to their normal form in batches, oldest first, skipping taken ones. */
async function rewrite(db: Kysely<any>, target: Target): Promise<void> {
  const { table, column, order } = target;
  let after: [number, string] | null = null;
  for (;;) {
    let query = target
      .scope(db.selectFrom(table).selectAll().where(column, 'is not', null))
      .orderBy(order)
      .orderBy('id')
      .limit(BATCH);
    if (after) {
      const [at, id] = after;
      query = query.where((eb: any) => eb.or([eb(order, '>', at), eb.and([eb(order, '=', at), eb('id', '>', id)])]));
    }
    const rows: any[] = await query.execute();
    if (rows.length === 0) return;
    after = [Number(rows.at(-1)[order]), rows.at(-1).id];
    for (const row of rows) {
      const normal = normalizeEmail(row[column]);
      if (normal === row[column]) continue;
      if (target.unique(row) && (await target.holder(db, row, normal))) continue;
      await db
        .updateTable(table)
        .set({ [column]: normal })
        .where('id', '=', row.id)
        .execute();
    }
  }
}

export const trustInput: Migration = {
  async up(db: Kysely<any>) {
    await rewrite(db, {
      table: 'users',
      column: 'primary_email',
      order: 'signed_up_at',
      scope: (q) => q,
      unique: (row) => Number(row.primary_email_auth_enabled) === 1,
      holder: (d, row, normal) =>
        d
          .selectFrom('users')
          .select('id')
          .where('project_id', '=', row.project_id)
          .where('primary_email', '=', normal)
          .where('primary_email_auth_enabled', '=', 1)
          .executeTakeFirst(),
    });
    await rewrite(db, {
      table: 'contact_channels',
      column: 'value',
      order: 'created_at',
      scope: (q) => q.where('type', '=', 'email'),
      unique: (row) => Number(row.used_for_auth) === 1,
      holder: (d, row, normal) =>
        d
          .selectFrom('contact_channels')
          .select('id')
          .where('project_id', '=', row.project_id)
          .where('type', '=', 'email')
          .where('value', '=', normal)
          .where('used_for_auth', '=', 1)
          .where('user_id', '!=', row.user_id)
          .executeTakeFirst(),
    });
  },
};
