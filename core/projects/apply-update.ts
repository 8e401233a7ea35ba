import { applyConfigUpdate, configProblems } from '../config/project-config.ts';
import { KnownError } from '../errors/index.ts';
import type { Project } from './queries.ts';
import type { ProjectUpdate } from './schemas.ts';

/**
 * Applies a wire project update and checks the cross-field rules of upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts (production
 * mode: HTTPS, non-localhost, non-IP domains).
 *
 * @throws KnownError SCHEMA_ERROR listing each broken rule.
 */
export function applyProjectUpdate(project: Project, update: ProjectUpdate, method: string, pathname: string): Project {
  const next: Project = {
    ...project,
    displayName: update.display_name ?? project.displayName,
    description: update.description === undefined ? project.description : (update.description ?? ''),
    isProductionMode: update.is_production_mode ?? project.isProductionMode,
    logoUrl: update.logo_url === undefined ? project.logoUrl : update.logo_url,
    logoFullUrl: update.logo_full_url === undefined ? project.logoFullUrl : update.logo_full_url,
    logoDarkModeUrl: update.logo_dark_mode_url === undefined ? project.logoDarkModeUrl : update.logo_dark_mode_url,
    logoFullDarkModeUrl: update.logo_full_dark_mode_url === undefined ? project.logoFullDarkModeUrl : update.logo_full_dark_mode_url,
    config: update.config ? applyConfigUpdate(project.config, update.config) : project.config,
  };
  const problems = configProblems(next.config, next.isProductionMode);
  if (problems.length > 0) {
    const message = `Request validation failed on ${method} ${pathname}:\n${problems.map((p) => `  - body.config: ${p}`).join('\n')}`;
    throw new KnownError('SCHEMA_ERROR', { message });
  }
  return next;
}
