import type { Kysely, Migration } from 'kysely';

/**
 * The dashboard assistant: chat threads per project and owner, their messages, the
 * per-project daily token count, and a log of failed sign-ins (no email or address in clear) that
 * the assistant's read-only tool lists.
 */
export const aiChat: Migration = {
  async up(db: Kysely<any>) {
    // A thread id is chosen by the client (upstream's dashboard makes one per chat); the key is
    // (project, id) so two projects may use the same id without meeting. `owner` is the owner's
    // internal-project user id, or `key:<project>` for callers with the project's admin key.
    await db.schema
      .createTable('ai_chat_threads')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('ai_chat_threads_pk', ['project_id', 'id'])
      .execute();
    await db.schema.createIndex('ai_chat_threads_owner').on('ai_chat_threads').columns(['project_id', 'owner', 'updated_at']).execute();

    // `seq` orders a thread's messages (creation times may tie); `content` is the message JSON.
    await db.schema
      .createTable('ai_chat_messages')
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('thread_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('ai_chat_messages_pk', ['project_id', 'thread_id', 'seq'])
      .addForeignKeyConstraint('ai_chat_messages_thread', ['project_id', 'thread_id'], 'ai_chat_threads', ['project_id', 'id'], (c) =>
        c.onDelete('cascade'),
      )
      .execute();

    // Tokens the model reported (or that were estimated) per project and UTC day.
    await db.schema
      .createTable('ai_token_usage')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('tokens', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('ai_token_usage_pk', ['project_id', 'day'])
      .execute();

    // Failed sign-ins: the user when the address belonged to one, the factor and the reason.
    await db.schema
      .createTable('sign_in_failures')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('user_id', 'text')
      .addColumn('factor', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sign_in_failures_project').on('sign_in_failures').columns(['project_id', 'created_at']).execute();
  },
};
