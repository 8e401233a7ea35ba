import * as v from 'valibot';
import { isValidLegacyEmail } from '../lib/email.ts';
import { UserIdOrMeSchema, UuidSchema } from '../lib/schemas.ts';
import { component, listOutput, MillisOutput } from '../operations/output.ts';

export const SendInvitationSchema = v.strictObject({
  email: v.pipe(v.string(), v.maxLength(256, 'must be at most 256 characters'), v.check(isValidLegacyEmail, 'must be a valid email')),
  team_id: UuidSchema,
  callback_url: v.pipe(v.string(), v.url('must be a valid URL')),
});

export const CodeSchema = v.strictObject({
  code: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(256, 'must be at most 256 characters')),
});

export const ListInvitationsQuerySchema = v.strictObject({ team_id: v.optional(UuidSchema), user_id: v.optional(UserIdOrMeSchema) });

export const InvitationParamsSchema = v.strictObject({ id: UuidSchema });
export const RevokeQuerySchema = v.strictObject({ team_id: UuidSchema });
export const AcceptByIdQuerySchema = v.strictObject({ user_id: v.optional(UserIdOrMeSchema) });

/** A pending invitation as listed: its team, when it expires, and the address it was sent to. */
export const TeamInvitationOutput = component(
  'TeamInvitation',
  v.strictObject({
    id: v.string(),
    team_id: v.string(),
    team_display_name: v.string(),
    expires_at_millis: MillisOutput,
    recipient_email: v.string(),
  }),
);

/** `{items: TeamInvitation[], is_paginated: false}`. */
export const TeamInvitationListOutput = listOutput(TeamInvitationOutput);

/** `{success: true, id}`: the invitation sent, by the id later calls name it with. */
export const SentInvitationOutput = v.strictObject({ success: v.literal(true), id: v.string() });

/** `{}`: the body of an accepted invitation (upstream answers an empty object). */
export const AcceptedOutput = v.strictObject({});

/** `{team_id, team_display_name}`: the team an invitation code is for. */
export const InvitationDetailsOutput = v.strictObject({ team_id: v.string(), team_display_name: v.string() });

/** Data of a `team_invitation` verification code. */
export type TeamInvitationData = { team_id: string; email: string };

/** The verification-code purpose of team invitations. */
export const INVITATION_PURPOSE = 'team_invitation';
