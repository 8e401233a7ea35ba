import { defineOperation } from '../operations/define.ts';
import { success } from '../lib/schemas.ts';
import { getDefinition } from './definition-checks.ts';
import { rebuildClosure } from './graph.ts';
import { renameInDefaults } from './defaults.ts';
import { deleteDefinition } from './queries.ts';
import { DefinitionParamsSchema, type PermissionScope } from './schemas.ts';
import { SuccessOutput } from '../operations/output.ts';

/** The delete operation of one permission scope (`team` or `project`), shared by both scopes' operations. */
export function deletePermissionDefinitionFor(scope: PermissionScope) {
  return defineOperation({
    id: `permissions.delete${scope === 'team' ? 'Team' : 'Project'}Definition`,
    method: 'DELETE',
    path: `/${scope}-permission-definitions/:permission_id`,
    summary: `Delete a ${scope} permission definition.`,
    access: ['admin'],
    input: { params: DefinitionParamsSchema },
    errors: ['PERMISSION_NOT_FOUND'],
    output: SuccessOutput,
    async run(ctx, { params }) {
      const projectId = ctx.auth.project.id;
      await ctx.transaction(async (tx) => {
        await getDefinition(tx.db, projectId, scope, params.permission_id);
        await deleteDefinition(tx.db, projectId, params.permission_id);
        await renameInDefaults(tx.db, projectId, params.permission_id, null);
        await rebuildClosure(tx.db, projectId);
      });
      return success;
    },
  });
}
