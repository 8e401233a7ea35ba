import type { Kysely, Migration } from 'kysely';

/**
 * The id of a user's primary-email contact channel, so a channel keeps its id
 * when it is promoted to primary or demoted from it (as upstream, where primary is a flag on the
 * channel). Null on existing rows: their primary channel keeps the id derived from the user id
 * (core/contact-channels/channels.ts `primaryChannelId`).
 */
export const primaryChannelIdColumn: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('users').addColumn('primary_email_channel_id', 'text').execute();
  },
};
