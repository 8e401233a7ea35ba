import { defineOperation } from '../operations/define.ts';
import { toAdminProject, AdminProjectOutput } from './wire.ts';

/** Reads the full admin project object (admin access). */
export const getCurrentProjectAdmin = defineOperation({
  id: 'projects.getCurrentAdmin',
  method: 'GET',
  path: '/internal/projects/current',
  summary: 'Get the current project with its full configuration.',
  access: ['admin'],
  input: {},
  errors: [],
  output: AdminProjectOutput,
  async run(ctx) {
    return toAdminProject(ctx.auth.project);
  },
});
