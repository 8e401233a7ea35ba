import { defineOperation } from '../operations/define.ts';
import { LOGO_FIELDS, ProjectUpdateSchema } from './schemas.ts';
import { logoFields, AdminProjectOutput } from './wire.ts';
import { releaseReplacedImages, storeDataImages } from '../images/index.ts';
import { applyProjectUpdate } from './apply-update.ts';
import { runProjectConfigChecks } from './lifecycle.ts';
import { findProject, updateProject } from './queries.ts';
import { toAdminProject } from './wire.ts';
import { writeLegacyConfigChange } from '../config/store.ts';
import { API_PREFIX } from '../operations/api-path.ts';

/**
 * Updates display name, description, logos, production mode and config (partial; omitted keys
 * keep their values), answering the admin project (admin access). The
 * config change is written to the configuration model's environment-level override.
 */
export const updateCurrentProject = defineOperation({
  id: 'projects.updateCurrent',
  method: 'PATCH',
  path: '/internal/projects/current',
  summary: 'Update the current project and its configuration.',
  access: ['admin'],
  input: { body: ProjectUpdateSchema },
  errors: [],
  output: AdminProjectOutput,
  async run(ctx, { body }) {
    return ctx.transaction(async (tx) => {
      const current = (await findProject(tx.db, ctx.auth.project.id)) ?? ctx.auth.project;
      // Base64 logos are stored by Gatehouse and replaced by their URLs.
      const update = await storeDataImages(tx, current.id, body, LOGO_FIELDS);
      const next = applyProjectUpdate(current, update, 'PATCH', `${API_PREFIX}/internal/projects/current`);
      await runProjectConfigChecks(tx, next);
      // The legacy config is a view of the configuration model: the change is written
      // there as an environment-level override, and the project row keeps the rendered view.
      if (body.config) {
        next.config = await writeLegacyConfigChange(tx.db, {
          projectId: current.id,
          branchId: ctx.auth.branchId,
          prev: current.config,
          next: next.config,
          now: ctx.now,
        });
      }
      await releaseReplacedImages(tx, current.id, logoFields(current), update, LOGO_FIELDS);
      await updateProject(tx.db, next);
      return toAdminProject(next);
    });
  },
});
