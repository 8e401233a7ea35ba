import { defineOperation } from '../operations/define.ts';
import { checkAcyclic, checkContained, checkIdFree } from './definition-checks.ts';
import { rebuildClosure } from './graph.ts';
import { insertDefinition, setContained } from './queries.ts';
import { DefinitionCreateSchema, type PermissionScope } from './schemas.ts';
import { toDefinitionJson, PermissionDefinitionOutput } from './wire.ts';

/** The create operation of one permission scope (`team` or `project`), shared by both scopes' operations. */
export function createPermissionDefinitionFor(scope: PermissionScope) {
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
