import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';
import { deleteProject } from './queries.ts';
import { SuccessOutput } from '../operations/output.ts';

/** Deletes the project and everything in it (admin access). */
export const deleteCurrentProject = defineOperation({
  id: 'projects.deleteCurrent',
  method: 'DELETE',
  path: '/internal/projects/current',
  summary: 'Delete the current project and all its data.',
  access: ['admin'],
  input: {},
  errors: [],
  output: SuccessOutput,
  async run(ctx) {
    if (ctx.auth.project.id === INTERNAL_PROJECT_ID) throw new StatusError('bad-request', 'The internal project cannot be deleted.');
    await deleteProject(ctx.db, ctx.auth.project.id);
    return { success: true };
  },
});
