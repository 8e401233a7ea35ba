import { defineOperation } from '../operations/define.ts';
import { checkAcyclic, checkContained, checkIdFree, getDefinition } from './definition-checks.ts';
import { rebuildClosure } from './graph.ts';
import { renameInDefaults } from './defaults.ts';
import { renameDefinition, setContained, updateDescription } from './queries.ts';
import { DefinitionParamsSchema, DefinitionUpdateSchema, type PermissionScope } from './schemas.ts';
import { toDefinitionJson, PermissionDefinitionOutput } from './wire.ts';

/** The update operation of one permission scope (`team` or `project`), shared by both scopes' operations. */
export function updatePermissionDefinitionFor(scope: PermissionScope) {
  return defineOperation({
    id: `permissions.update${scope === 'team' ? 'Team' : 'Project'}Definition`,
    method: 'PATCH',
    path: `/${scope}-permission-definitions/:permission_id`,
    summary: `Update or rename a ${scope} permission definition.`,
    access: ['admin'],
    input: { params: DefinitionParamsSchema, body: DefinitionUpdateSchema },
    errors: ['PERMISSION_NOT_FOUND', 'PERMISSION_ID_ALREADY_EXISTS', 'CONTAINED_PERMISSION_NOT_FOUND'],
    output: PermissionDefinitionOutput,
    async run(ctx, { params, body }) {
      const projectId = ctx.auth.project.id;
      return ctx.transaction(async (tx) => {
        const current = await getDefinition(tx.db, projectId, scope, params.permission_id);
        const next = {
          id: body.id ?? current.id,
          scope,
          description: body.description === undefined ? current.description : body.description,
          containedIds: body.contained_permission_ids ? [...new Set(body.contained_permission_ids)].sort() : current.containedIds,
        };
        if (next.id !== current.id) await checkIdFree(tx.db, projectId, next.id);
        if (body.contained_permission_ids) await checkContained(tx.db, projectId, scope, next.containedIds);
        await checkAcyclic(tx.db, projectId, next, current.id);
        if (next.id !== current.id) {
          await renameDefinition(tx.db, projectId, current.id, next.id);
          await renameInDefaults(tx.db, projectId, current.id, next.id);
        }
        if (next.description !== current.description) await updateDescription(tx.db, projectId, next.id, next.description);
        if (body.contained_permission_ids) await setContained(tx.db, projectId, next.id, next.containedIds);
        await rebuildClosure(tx.db, projectId);
        return toDefinitionJson(next);
      });
    },
  });
}
