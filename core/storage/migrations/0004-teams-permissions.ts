import type { Kysely, Migration } from 'kysely';

/**
 * Permission definitions (team and project scope), their containment edges and the materialized
 * closure used by permission checks, team and project permission grants, and user / team API keys.
 */
export const teamsPermissions: Migration = {
  async up(db: Kysely<any>) {
    // Custom definitions only; the six `$` system permissions are fixed and never stored here.
    // Ids are unique per project across both scopes (a team id cannot also be a project id),
    // which is what lets a grant answer WRONG_PERMISSION_SCOPE.
    await db.schema
      .createTable('permission_definitions')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('permission_definitions_pk', ['project_id', 'id'])
      .execute();

    // `parent_id` contains `child_id` (child may be a `$` system permission).
    await db.schema
      .createTable('permission_edges')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('parent_id', 'text', (c) => c.notNull())
      .addColumn('child_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('permission_edges_pk', ['project_id', 'parent_id', 'child_id'])
      .execute();
    await db.schema.createIndex('permission_edges_child').on('permission_edges').columns(['project_id', 'child_id']).execute();

    // Reflexive-transitive closure of the edges per project: holding `ancestor_id` implies
    // `descendant_id`. Recomputed whenever a definition changes; read by every permission check.
    await db.schema
      .createTable('permission_closure')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('ancestor_id', 'text', (c) => c.notNull())
      .addColumn('descendant_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('permission_closure_pk', ['project_id', 'ancestor_id', 'descendant_id'])
      .execute();

    await db.schema
      .createTable('team_permission_grants')
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('permission_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('team_permission_grants_pk', ['project_id', 'team_id', 'user_id', 'permission_id'])
      // Leaving a team (or the team or user being deleted) drops the member's permissions.
      .addForeignKeyConstraint('team_permission_grants_member', ['team_id', 'user_id'], 'team_members', ['team_id', 'user_id'], (c) =>
        c.onDelete('cascade'),
      )
      .execute();
    await db.schema
      .createIndex('team_permission_grants_permission')
      .on('team_permission_grants')
      .columns(['project_id', 'permission_id'])
      .execute();

    await db.schema
      .createTable('project_permission_grants')
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('permission_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('project_permission_grants_pk', ['project_id', 'user_id', 'permission_id'])
      .execute();
    await db.schema
      .createIndex('project_permission_grants_permission')
      .on('project_permission_grants')
      .columns(['project_id', 'permission_id'])
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('team_id', 'text', (c) => c.references('teams.id').onDelete('cascade'))
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
      .addColumn('last_four', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint')
      .addColumn('manually_revoked_at', 'bigint')
      .execute();
    await db.schema.createIndex('api_keys_user').on('api_keys').columns(['project_id', 'user_id', 'created_at']).execute();
    await db.schema.createIndex('api_keys_team').on('api_keys').columns(['project_id', 'team_id', 'created_at']).execute();

    // Projects that exist already (a data folder from before this migration) get the default team
    // definitions new projects get from core/permissions (upstream apps/backend/prisma/seed.ts), and their closure.
    const SYSTEM = ['$delete_team', '$invite_members', '$manage_api_keys', '$read_members', '$remove_members', '$update_team'];
    const projects = (await db.selectFrom('projects').select(['id', 'created_at']).execute()) as Array<{ id: string; created_at: number }>;
    for (const project of projects) {
      const internal = project.id === 'internal';
      const defs: Array<[string, string, string[]]> = [
        [
          'team_admin',
          'Default permission for team creators',
          internal ? ['$invite_members', '$read_members', '$remove_members', '$update_team'] : SYSTEM,
        ],
        ['team_member', 'Default permission for team members', internal ? ['$read_members'] : ['$invite_members', '$read_members']],
      ];
      const closure = SYSTEM.map((id) => ({ project_id: project.id, scope: 'team', ancestor_id: id, descendant_id: id }));
      for (const [id, description, contained] of defs) {
        await db
          .insertInto('permission_definitions')
          .values({ project_id: project.id, id, scope: 'team', description, created_at: Number(project.created_at) })
          .execute();
        await db
          .insertInto('permission_edges')
          .values(contained.map((child) => ({ project_id: project.id, parent_id: id, child_id: child })))
          .execute();
        closure.push({ project_id: project.id, scope: 'team', ancestor_id: id, descendant_id: id });
        for (const child of contained) closure.push({ project_id: project.id, scope: 'team', ancestor_id: id, descendant_id: child });
      }
      await db.insertInto('permission_closure').values(closure).execute();
    }
  },
};
