import * as v from 'valibot';
import { MillisSchema, UserIdOrMeSchema, UuidSchema } from '../lib/schemas.ts';

const common = {
  description: v.pipe(v.string(), v.maxLength(1000, 'must be at most 1000 characters')),
  expires_at_millis: v.optional(v.nullable(MillisSchema)),
  is_public: v.optional(v.boolean()),
};

export const UserKeyCreateSchema = v.strictObject({ ...common, user_id: UserIdOrMeSchema });
export const TeamKeyCreateSchema = v.strictObject({ ...common, team_id: UuidSchema });

export const KeyParamsSchema = v.strictObject({ api_key_id: UuidSchema });
export const UserKeyQuerySchema = v.strictObject({ user_id: v.optional(UserIdOrMeSchema) });
export const TeamKeyQuerySchema = v.strictObject({ team_id: v.optional(UuidSchema) });

export const KeyUpdateSchema = v.strictObject({
  description: v.optional(v.pipe(v.string(), v.maxLength(1000, 'must be at most 1000 characters'))),
  revoked: v.optional(v.boolean()),
});

export const KeyCheckSchema = v.strictObject({ api_key: v.string() });
