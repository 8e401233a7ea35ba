import { defineOperation } from '../operations/define.ts';
import { checkAcyclic, checkContained, checkIdFree } from './definition-checks.ts';
import { rebuildClosure } from './graph.ts';
import { insertDefinition, setContained } from './queries.ts';
import { DefinitionCreateSchema, type PermissionScope } from './schemas.ts';
import { toDefinitionJson, PermissionDefinitionOutput } from './wire.ts';

function createFor(scope: PermissionScope) {
  return defineOperation({
    id: `permissions.create${scope === 'team' ? 'Team' : 'Project'}Definition`,
    method: 'POST',
    path: `/${scope}-permission-definitions`,
    summary: `Create a ${scope} permission definition.`,
    access: ['admin'],
    input: { body: DefinitionCreateSchema },
    errors: ['PERMISSION_ID_ALREADY_EXISTS', 'CONTAINED_PERMISSION_NOT_FOUND'],
    created: true,
    output: PermissionDefinitionOutput,
    async run(ctx, { body }) {
      const projectId = ctx.auth.project.id;
      const containedIds = [...new Set(body.contained_permission_ids ?? [])].sort();
      const def = { id: body.id, scope, description: body.description ?? null, containedIds };
      await ctx.transaction(async (tx) => {
        await checkIdFree(tx.db, projectId, body.id);
        await checkContained(tx.db, projectId, scope, containedIds);
        await checkAcyclic(tx.db, projectId, def, body.id);
        await insertDefinition(tx.db, projectId, def, tx.now);
        await setContained(tx.db, projectId, def.id, containedIds);
        await rebuildClosure(tx.db, projectId);
      });
      return toDefinitionJson(def);
    },
  });
}

/**
 * `POST /team-permission-definitions` (admin) `{id, description?, contained_permission_ids?}` → 201 definition.
 * Errors: PERMISSION_ID_ALREADY_EXISTS (ids are unique across scopes and the system ids),
 * CONTAINED_PERMISSION_NOT_FOUND; a cycle → 400 text (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/team-permissions/, upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts).
 */
export const createTeamPermissionDefinition = createFor('team');

/** `POST /project-permission-definitions` (admin): as the team variant, contained ids from project scope only. */
export const createProjectPermissionDefinition = createFor('project');
