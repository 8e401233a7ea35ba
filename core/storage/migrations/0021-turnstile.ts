import type { Kysely, Migration } from 'kysely';

/**
 * A project's Cloudflare Turnstile secret key, per project and branch,
 * stored only sealed (AES-256-GCM, core/bot-challenge/settings.ts). The site key is public and
 * lives in the config model (`botChallenge.turnstileSiteKey`).
 */
export const turnstile: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('bot_challenge_secrets')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('branch_id', 'text', (c) => c.notNull())
      .addColumn('turnstile_secret_sealed', 'text', (c) => c.notNull())
      .addColumn('turnstile_secret_hint', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('bot_challenge_secrets_pk', ['project_id', 'branch_id'])
      .execute();
  },
};
