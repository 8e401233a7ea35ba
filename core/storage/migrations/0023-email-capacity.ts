import type { Kysely, Migration } from 'kysely';

/**
 * Email recipients and sending capacity, as upstream answers them (issue 34 item 3):
 * - `emails.recipient`: `user-primary-email` for an email addressed to a user's primary email
 *   (`send-email`), null for one sent to a given address (built-in emails, with or without a user);
 *   the outbox API answers `to.type` from it.
 * - `email_capacity_boosts`: a project's active capacity boost (`POST /emails/capacity-boost`),
 *   its end in epoch ms; one row per project, replaced by the next boost.
 */
export const emailCapacity: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('emails').addColumn('recipient', 'text').execute();
    await db.schema
      .createTable('email_capacity_boosts')
      .addColumn('project_id', 'text', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
