import type { Kysely, Migration } from 'kysely';
import { normalizeEmail } from '../../lib/email.ts';

const BATCH = 2_000;

/**
 * Issue 27 finding 10: email addresses are compared in one normalized form (core/lib/email.ts
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
export const trustInput: Migration = {
  async up(db: Kysely<any>) {
    let after: [number, string] | null = null;
    for (;;) {
      let query = db.selectFrom('users').select(['id', 'project_id', 'primary_email', 'primary_email_auth_enabled', 'signed_up_at'])
        .where('primary_email', 'is not', null).orderBy('signed_up_at').orderBy('id').limit(BATCH);
      if (after) {
        const [at, id] = after;
        query = query.where((eb) => eb.or([eb('signed_up_at', '>', at), eb.and([eb('signed_up_at', '=', at), eb('id', '>', id)])]));
      }
      const rows = await query.execute();
      if (rows.length === 0) break;
      after = [Number(rows.at(-1)!.signed_up_at), rows.at(-1)!.id];
      for (const row of rows) {
        const normal = normalizeEmail(row.primary_email);
        if (normal === row.primary_email) continue;
        if (Number(row.primary_email_auth_enabled) === 1) {
          const holder = await db.selectFrom('users').select('id').where('project_id', '=', row.project_id)
            .where('primary_email', '=', normal).where('primary_email_auth_enabled', '=', 1).executeTakeFirst();
          if (holder) continue;
        }
        await db.updateTable('users').set({ primary_email: normal }).where('id', '=', row.id).execute();
      }
    }

    let afterChannel: [number, string] | null = null;
    for (;;) {
      let query = db.selectFrom('contact_channels').select(['id', 'project_id', 'user_id', 'value', 'used_for_auth', 'created_at'])
        .where('type', '=', 'email').orderBy('created_at').orderBy('id').limit(BATCH);
      if (afterChannel) {
        const [at, id] = afterChannel;
        query = query.where((eb) => eb.or([eb('created_at', '>', at), eb.and([eb('created_at', '=', at), eb('id', '>', id)])]));
      }
      const rows = await query.execute();
      if (rows.length === 0) break;
      afterChannel = [Number(rows.at(-1)!.created_at), rows.at(-1)!.id];
      for (const row of rows) {
        const normal = normalizeEmail(row.value);
        if (normal === row.value) continue;
        if (Number(row.used_for_auth) === 1) {
          const holder = await db.selectFrom('contact_channels').select('id').where('project_id', '=', row.project_id).where('type', '=', 'email')
            .where('value', '=', normal).where('used_for_auth', '=', 1).where('user_id', '!=', row.user_id).executeTakeFirst();
          if (holder) continue;
        }
        await db.updateTable('contact_channels').set({ value: normal }).where('id', '=', row.id).execute();
      }
    }
  },
};
