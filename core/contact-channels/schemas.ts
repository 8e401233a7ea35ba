import * as v from 'valibot';
import { StoredEmailSchema, UserIdOrMeSchema, UuidSchema } from '../lib/schemas.ts';

/** Path params of one channel. */
export const ChannelParamsSchema = v.strictObject({ user_id: UserIdOrMeSchema, contact_channel_id: UuidSchema });

const createEntries = {
  user_id: UserIdOrMeSchema,
  value: StoredEmailSchema,
  type: v.picklist(['email']),
  used_for_auth: v.boolean(),
  is_primary: v.optional(v.boolean()),
};

/** `POST /contact-channels` body for clients (no `is_verified`). */
export const ClientCreateChannelSchema = v.strictObject(createEntries);
/** `POST /contact-channels` body for server and admin. */
export const ServerCreateChannelSchema = v.strictObject({ ...createEntries, is_verified: v.optional(v.boolean()) });

const updateEntries = {
  value: v.optional(StoredEmailSchema),
  type: v.optional(v.picklist(['email'])),
  used_for_auth: v.optional(v.boolean()),
  is_primary: v.optional(v.boolean()),
};
export const ClientUpdateChannelSchema = v.strictObject(updateEntries);
export const ServerUpdateChannelSchema = v.strictObject({ ...updateEntries, is_verified: v.optional(v.boolean()) });

export const CallbackBodySchema = v.strictObject({ callback_url: v.string() });
export const CodeBodySchema = v.strictObject({ code: v.string() });
