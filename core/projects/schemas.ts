import * as v from 'valibot';
import { imageUrlSchema, MAX_IMAGE_BYTES } from '../images/index.ts';
import { ConfigUpdateSchema } from '../config/project-config.ts';
import { UuidSchema } from '../lib/schemas.ts';

/** A logo: an http(s) URL or an allowed base64 image (stored by Gatehouse and served from its URL). */
const LogoSchema = v.optional(imageUrlSchema(MAX_IMAGE_BYTES, 'Invalid logo URL'));

/** The logo fields of a project body. */
export const LOGO_FIELDS = ['logo_url', 'logo_full_url', 'logo_dark_mode_url', 'logo_full_dark_mode_url'] as const;

/** Fields an admin may change on a project (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ Project). */
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
