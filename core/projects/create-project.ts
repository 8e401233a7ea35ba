import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { uuid } from '../lib/random.ts';
import { defaultProjectConfig } from '../config/project-config.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';
import { isTeamMember } from '../team-membership/index.ts';
import { LOGO_FIELDS, ProjectCreateSchema } from './schemas.ts';
import { storeDataImages } from '../images/index.ts';
import { applyProjectUpdate } from './apply-update.ts';
import { insertProject, updateProject, type Project } from './queries.ts';
import { runProjectConfigChecks, runProjectCreatedHooks } from './lifecycle.ts';
import { requireInternalUser } from './require-internal-user.ts';
import { toAdminProject, AdminProjectOutput } from './wire.ts';
import { assertDashboardAccountUsable } from '../dashboard-signup/index.ts';
import { API_PREFIX } from '../operations/api-path.ts';

/**
 * Creates a project owned by one of the user's internal teams (`owner_team_id`, default: the
 * selected team), answering the admin project (internal project, a signed-in user; upstream
 * apps/backend/prisma/seed.ts "Fresh project per test"). With dashboard sign-up closed, an account
 * that registered an already invited address must verify it first.
 */
export const createProject = defineOperation({
  id: 'projects.create',
  method: 'POST',
  path: '/internal/projects',
  summary: 'Create a project owned by one of your teams.',
  access: ['client', 'server', 'admin'],
  input: { body: ProjectCreateSchema },
  errors: ['EXPECTED_INTERNAL_PROJECT', 'USER_AUTHENTICATION_REQUIRED', 'TEAM_MEMBERSHIP_NOT_FOUND', 'EMAIL_NOT_VERIFIED'],
  created: true,
  output: AdminProjectOutput,
  async run(ctx, { body }) {
    const user = requireInternalUser(ctx.auth);
    await assertDashboardAccountUsable(ctx, user);
    const ownerTeamId = body.owner_team_id ?? user.selected_team_id;
    if (!ownerTeamId || !(await isTeamMember(ctx.db, INTERNAL_PROJECT_ID, ownerTeamId, user.id))) {
      throw new KnownError('TEAM_MEMBERSHIP_NOT_FOUND', { team_id: ownerTeamId ?? null, user_id: user.id });
    }
    const blank: Project = {
      id: uuid(),
      displayName: body.display_name,
      description: '',
      createdAt: ctx.now,
      isProductionMode: false,
      isDevelopmentEnvironment: body.is_development_environment ?? false,
      ownerTeamId,
      logoUrl: null,
      logoFullUrl: null,
      logoDarkModeUrl: null,
      logoFullDarkModeUrl: null,
      config: defaultProjectConfig(),
    };
    const { owner_team_id: _o, is_development_environment: _d, ...update } = body;
    const withoutLogos = applyProjectUpdate(
      blank,
      { ...update, ...Object.fromEntries(LOGO_FIELDS.map((f) => [f, undefined])) },
      'POST',
      `${API_PREFIX}/internal/projects`,
    );
    const project = await ctx.transaction(async (tx) => {
      await runProjectConfigChecks(tx, withoutLogos);
      await insertProject(tx.db, withoutLogos);
      // Logos after the row exists: base64 ones are stored by Gatehouse and replaced by their URLs.
      const logos = await storeDataImages(tx, withoutLogos.id, Object.fromEntries(LOGO_FIELDS.map((f) => [f, update[f]])), LOGO_FIELDS);
      const created = applyProjectUpdate(withoutLogos, logos, 'POST', `${API_PREFIX}/internal/projects`);
      await updateProject(tx.db, created);
      await runProjectCreatedHooks(tx, created);
      return created;
    });
    return toAdminProject(project);
  },
});
