import * as v from 'valibot';
import { imageUrlSchema } from '../images/index.ts';
import { MetadataSchema, UserIdOrMeSchema, UuidSchema } from '../lib/schemas.ts';

/** Team display name: required, 1–256 characters (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts). */
/** Upstream accepts an empty team display name; only the length is capped. */
export const TeamDisplayNameSchema = v.pipe(v.string(), v.maxLength(256, 'must be at most 256 characters'));

/** Team image: an http(s) URL or an allowed base64 image of at most 1 MB (stored by Gatehouse). */
export const ImageUrlSchema = imageUrlSchema();

const Metadata = v.optional(MetadataSchema);

const clientTeamEntries = {
  display_name: TeamDisplayNameSchema,
  profile_image_url: v.optional(ImageUrlSchema),
  client_metadata: Metadata,
};
const serverTeamEntries = { ...clientTeamEntries, client_read_only_metadata: Metadata, server_metadata: Metadata };

export const ClientTeamCreateSchema = v.strictObject({ ...clientTeamEntries, creator_user_id: v.optional(UserIdOrMeSchema) });
export const ServerTeamCreateSchema = v.strictObject({ ...serverTeamEntries, creator_user_id: v.optional(UserIdOrMeSchema) });
export const ClientTeamUpdateSchema = v.strictObject({ ...clientTeamEntries, display_name: v.optional(TeamDisplayNameSchema) });
export const ServerTeamUpdateSchema = v.strictObject({ ...serverTeamEntries, display_name: v.optional(TeamDisplayNameSchema) });

export const TeamParamsSchema = v.strictObject({ team_id: UuidSchema });
export const MembershipParamsSchema = v.strictObject({ team_id: UuidSchema, user_id: UserIdOrMeSchema });

export const ProfileUpdateSchema = v.strictObject({
  display_name: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(256, 'must be at most 256 characters')))),
  profile_image_url: v.optional(ImageUrlSchema),
});
