import type { Kysely, Migration } from 'kysely';

/** Extra headers of a queued email (JSON object, e.g. RFC 8058 `List-Unsubscribe`), issue 17. */
export const emailHeaders: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('emails').addColumn('headers', 'text').execute();
  },
};
