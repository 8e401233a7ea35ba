import * as v from 'valibot';
import { ConfigUpdateSchema } from '../config/project-config.ts';
import { UuidSchema } from '../lib/schemas.ts';

const LogoSchema = v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1_000_000, 'must be at most 1000000 characters'))));

/** Fields an admin may change on a project (product-spec §3 Project). */
export const projectUpdateEntries = {
  display_name: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(256, 'must be at most 256 characters'))),
  description: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(10_000)))),
  is_production_mode: v.optional(v.boolean()),
  logo_url: LogoSchema,
  logo_full_url: LogoSchema,
  logo_dark_mode_url: LogoSchema,
  logo_full_dark_mode_url: LogoSchema,
  config: v.optional(ConfigUpdateSchema),
};

export const ProjectUpdateSchema = v.strictObject(projectUpdateEntries);

export const ProjectCreateSchema = v.strictObject({
  ...projectUpdateEntries,
  display_name: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(256, 'must be at most 256 characters')),
  owner_team_id: v.optional(UuidSchema),
  is_development_environment: v.optional(v.boolean()),
});

export type ProjectUpdate = v.InferOutput<typeof ProjectUpdateSchema>;
