import * as v from 'valibot';
import { isValidLegacyEmail } from '../lib/email.ts';
import { UserIdOrMeSchema, UuidSchema } from '../lib/schemas.ts';

export const SendInvitationSchema = v.strictObject({
  email: v.pipe(v.string(), v.maxLength(256, 'must be at most 256 characters'), v.check(isValidLegacyEmail, 'must be a valid email')),
  team_id: UuidSchema,
  callback_url: v.pipe(v.string(), v.url('must be a valid URL')),
});

export const CodeSchema = v.strictObject({ code: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(256, 'must be at most 256 characters')) });

export const ListInvitationsQuerySchema = v.strictObject({ team_id: v.optional(UuidSchema), user_id: v.optional(UserIdOrMeSchema) });

export const InvitationParamsSchema = v.strictObject({ id: UuidSchema });
export const RevokeQuerySchema = v.strictObject({ team_id: UuidSchema });
export const AcceptByIdQuerySchema = v.strictObject({ user_id: v.optional(UserIdOrMeSchema) });

/** Data of a `team_invitation` verification code. */
export type TeamInvitationData = { team_id: string; email: string };

/** The verification-code purpose of team invitations. */
export const INVITATION_PURPOSE = 'team_invitation';
