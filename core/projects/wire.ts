import * as v from 'valibot';
import { AdminProjectConfigOutput, ClientProjectConfigOutput, configToClientWire, configToWire } from '../config/project-config.ts';
import { component, MillisOutput, NullableString } from '../operations/output.ts';
import type { Project } from './queries.ts';

/** Admin project object (upstream apps/backend/prisma/seed.ts; upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ "Admin project"). */
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
  return {
    logo_url: project.logoUrl,
    logo_full_url: project.logoFullUrl,
    logo_dark_mode_url: project.logoDarkModeUrl,
    logo_full_dark_mode_url: project.logoFullDarkModeUrl,
  };
}

/** Output schema of `toAdminProject`. */
export const AdminProjectOutput = component(
  'AdminProject',
  v.strictObject({
    id: v.string(),
    display_name: v.string(),
    description: v.string(),
    created_at_millis: MillisOutput,
    is_production_mode: v.boolean(),
    is_development_environment: v.boolean(),
    owner_team_id: NullableString,
    onboarding_status: v.literal('completed'),
    logo_url: NullableString,
    logo_full_url: NullableString,
    logo_dark_mode_url: NullableString,
    logo_full_dark_mode_url: NullableString,
    config: AdminProjectConfigOutput,
  }),
);

/** Output schema of `toClientProject`. */
export const ClientProjectOutput = component(
  'ClientProject',
  v.strictObject({ id: v.string(), display_name: v.string(), config: ClientProjectConfigOutput }),
);
