import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { KnownError } from '../errors/index.ts';
import type { Database } from '../storage/tables.ts';
import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { findUser, findUserByAuthEmail, type UserRow } from '../users/index.ts';
import { createVerificationCode } from '../verification-codes/index.ts';
import { linkWithCode, sendBuiltInEmail } from '../emails/index.ts';
import { findAuthChannelRow, findChannelRow, findOtherAuthChannel, listChannelRows, type ContactChannelRow } from './queries.ts';
import * as v from 'valibot';
import { component } from '../operations/output.ts';

/** A contact channel as {@link toWireChannel} shows it (upstream `contactChannelsCrud` read shape). */
export const ContactChannelOutput = component(
  'ContactChannel',
  v.strictObject({
    id: v.string(),
    user_id: v.string(),
    value: v.string(),
    type: v.literal('email'),
    used_for_auth: v.boolean(),
    is_verified: v.boolean(),
    is_primary: v.boolean(),
  }),
);

/** A contact channel, primary or not (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/, upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/contact-channels/). */
export interface ContactChannel {
  id: string;
  userId: string;
  type: 'email';
  value: string;
  isVerified: boolean;
  usedForAuth: boolean;
  isPrimary: boolean;
}

/**
 * The id of a user's primary-email channel when `users.primary_email_channel_id` is null (users
 * whose primary email was set before that column existed, or at creation): a v4-shaped UUID
 * derived from the user id, stable while the primary email lives in the `users` row.
 */
export function primaryChannelId(userId: string): string {
  const h = createHash('sha256').update(`gatehouse:primary-email:${userId}`).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function primaryChannelOf(user: UserRow): ContactChannel | null {
  if (!user.primary_email) return null;
  return {
    id: user.primary_email_channel_id ?? primaryChannelId(user.id),
    userId: user.id,
    type: 'email',
    value: user.primary_email,
    isVerified: user.primary_email_verified,
    usedForAuth: user.primary_email_auth_enabled,
    isPrimary: true,
  };
}

export function channelFromRow(row: ContactChannelRow): ContactChannel {
  return {
    id: row.id,
    userId: row.user_id,
    type: 'email',
    value: row.value,
    isVerified: row.is_verified,
    usedForAuth: row.used_for_auth,
    isPrimary: false,
  };
}

/** The user's channels: the primary email first (when set), then the others by creation. */
export async function listUserChannels(db: Kysely<Database>, projectId: string, user: UserRow): Promise<ContactChannel[]> {
  const primary = primaryChannelOf(user);
  const rows = await listChannelRows(db, projectId, user.id);
  return [...(primary ? [primary] : []), ...rows.map(channelFromRow)];
}

/** One channel of the user by id, or null. */
export async function findUserChannel(db: Kysely<Database>, projectId: string, user: UserRow, id: string): Promise<ContactChannel | null> {
  const primary = primaryChannelOf(user);
  if (primary && primary.id === id) return primary;
  const row = await findChannelRow(db, projectId, user.id, id);
  return row ? channelFromRow(row) : null;
}

/** The wire item `{id, user_id, value, type, used_for_auth, is_verified, is_primary}`. */
export function toWireChannel(c: ContactChannel) {
  return {
    id: c.id,
    user_id: c.userId,
    value: c.value,
    type: c.type,
    used_for_auth: c.usedForAuth,
    is_verified: c.isVerified,
    is_primary: c.isPrimary,
  };
}

/**
 * Throws CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE when another user of the project
 * signs in with `value` (as an auth-enabled primary email or contact channel).
 */
export async function assertAuthValueFree(db: Kysely<Database>, projectId: string, value: string, userId: string): Promise<void> {
  const owner = await findUserByAuthEmail(db, projectId, value);
  const other = owner && owner.id !== userId ? owner : await findOtherAuthChannel(db, projectId, 'email', value, userId);
  if (other) throw new KnownError('CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', { type: 'email', contact_channel_value: value });
}

/**
 * The auth-enabled email channel holding `email` (normalized) in the project, primary or not,
 * with its user: what OTP sign-in and the other email-based sign-ins look up, as upstream's
 * `getAuthContactChannelWithEmailNormalization`. Null when no user signs in with it.
 */
export async function findAuthEmailChannel(
  db: Kysely<Database>,
  projectId: string,
  email: string,
): Promise<{ user: UserRow; channel: ContactChannel } | null> {
  const owner = await findUserByAuthEmail(db, projectId, email);
  if (owner) return { user: owner, channel: primaryChannelOf(owner)! };
  const row = await findAuthChannelRow(db, projectId, 'email', email);
  if (!row) return null;
  const user = await findUser(db, projectId, row.user_id);
  return user ? { user, channel: channelFromRow(row) } : null;
}

/** The user or USER_NOT_FOUND. */
export async function getUserOrThrow(db: Kysely<Database>, projectId: string, userId: string): Promise<UserRow> {
  const user = await findUser(db, projectId, userId);
  if (!user) throw new KnownError('USER_NOT_FOUND');
  return user;
}

/** Data of an `email_verification` code. */
export type EmailVerificationData = { user_id: string; email: string };

/**
 * Creates an email-verification code for `email` of `user` and queues the email "Verify your
 * email at <project>" linking to `<callbackUrl>?code=<code>`, in the caller's transaction.
 */
export async function sendVerificationEmail(
  ctx: OperationContext,
  project: Project,
  user: UserRow,
  email: string,
  callbackUrl: string,
): Promise<void> {
  const data: EmailVerificationData = { user_id: user.id, email };
  const { code } = await createVerificationCode(ctx, {
    projectId: project.id,
    purpose: 'email_verification',
    data,
    userId: user.id,
    email,
  });
  await sendBuiltInEmail(ctx, project, {
    kind: 'email_verification',
    to: email,
    userId: user.id,
    secrets: [code],
    vars: { link: linkWithCode(callbackUrl, code), userDisplayName: user.display_name ?? '' },
  });
}
