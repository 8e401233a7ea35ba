/** The projects domain's operations, listed by the registry (core/operations/registry.ts). */
export { createProject } from './create-project.ts';
export { listProjects } from './list-projects.ts';
export { getCurrentProject } from './get-current-project.ts';
export { getCurrentProjectAdmin } from './get-current-project-admin.ts';
export { updateCurrentProject } from './update-current-project.ts';
export { deleteCurrentProject } from './delete-current-project.ts';
export { transferProject } from './transfer-project.ts';
export { listOwnerTeamMembers } from './list-owner-team-members.ts';
