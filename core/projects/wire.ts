import { configToClientWire, configToWire } from '../config/project-config.ts';
import type { Project } from './queries.ts';

/** Admin project object (wire-protocol §2; sdk-compatibility §6 "Admin project"). */
export function toAdminProject(p: Project) {
  return {
    id: p.id,
    display_name: p.displayName,
    description: p.description,
    created_at_millis: p.createdAt,
    is_production_mode: p.isProductionMode,
    is_development_environment: p.isDevelopmentEnvironment,
    owner_team_id: p.ownerTeamId,
    onboarding_status: 'completed' as const,
    logo_url: p.logoUrl,
    logo_full_url: p.logoFullUrl,
    logo_dark_mode_url: p.logoDarkModeUrl,
    logo_full_dark_mode_url: p.logoFullDarkModeUrl,
    config: configToWire(p.config, p.id),
  };
}

/** Client project object (`GET /projects/current`). */
export function toClientProject(p: Project) {
  return { id: p.id, display_name: p.displayName, config: configToClientWire(p.config) };
}

/** A project's logos under their wire names. */
export function logoFields(project: Project): Record<string, string | null> {
  return { logo_url: project.logoUrl, logo_full_url: project.logoFullUrl, logo_dark_mode_url: project.logoDarkModeUrl, logo_full_dark_mode_url: project.logoFullDarkModeUrl };
}
