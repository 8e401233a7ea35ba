import type { Insertable, Updateable } from 'kysely';
import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import type { UsersTable } from '../storage/tables.ts';
import { uuid } from '../lib/random.ts';
import { findTeam, insertTeam, insertTeamMember, listUserTeamIds, toServerTeam, updateTeamRow } from '../teams/index.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { toServerUser } from './wire.ts';
import { findUser, insertUser, updateUser, type UserRow } from './queries.ts';
import { emailTakenError } from './apply-fields.ts';
import { applyPrimaryEmailChange } from './primary-email.ts';

/** The stored fields of a new user, before defaults. Hashing must be done by the caller, outside transactions. */
export type NewUserFields = Partial<Omit<Insertable<UsersTable>, 'id' | 'project_id' | 'signed_up_at'>>;

/** "<display name>'s Team", else "<email>'s Team", else "Personal Team" (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/). */
export function personalTeamName(user: Pick<UserRow, 'display_name' | 'primary_email'>): string {
  if (user.display_name) return `${user.display_name}'s Team`;
  if (user.primary_email) return `${user.primary_email}'s Team`;
  return 'Personal Team';
}

/**
 * Inserts a user with defaults filled in (UUID v4 id, `signed_up_at = now`, zero risk scores).
 * Uses `ctx.db`, so it joins the caller's transaction.
 */
export async function insertNewUser(ctx: OperationContext, project: Project, fields: NewUserFields): Promise<UserRow> {
  const row: UserRow = {
    id: uuid(),
    project_id: project.id,
    display_name: null,
    primary_email: null,
    primary_email_verified: false,
    primary_email_auth_enabled: false,
    primary_email_channel_id: null,
    profile_image_url: null,
    signed_up_at: ctx.now,
    last_active_at: ctx.now,
    client_metadata: null,
    client_read_only_metadata: null,
    server_metadata: null,
    password_hash: null,
    otp_auth_enabled: false,
    passkey_auth_enabled: false,
    totp_secret_base64: null,
    is_anonymous: false,
    selected_team_id: null,
    restricted_by_admin: false,
    restricted_by_admin_reason: null,
    restricted_by_admin_private_details: null,
    country_code: null,
    // The language the user signed up in (hosted pages' choice, else the browser's), for their emails.
    locale: ctx.auth?.accessType === 'client' ? ctx.clientLocale : null,
    risk_scores: JSON.stringify({ sign_up: { bot: 0, free_trial_abuse: 0 } }),
    ...fields,
  } as UserRow;
  await mapEmailRace(ctx, row.primary_email ?? null, () => insertUser(ctx.db, row));
  return row;
}

/**
 * Runs a users write and turns a unique-index violation on the auth email (two sign-ups with one
 * email racing past the check) into USER_EMAIL_ALREADY_EXISTS instead of a 500.
 */
export async function mapEmailRace<T>(ctx: OperationContext, email: string | null, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (email && ctx.runtime.storage.isUniqueViolation(error)) throw emailTakenError(email);
    throw error;
  }
}

/**
 * Creates the personal team of a new user when the project has `create_team_on_sign_up`, makes
 * the user its member and selects it, then runs the user-created listeners wired in `createCore`
 * (core/hooks.ts: default permissions).
 *
 * @returns the user as stored afterwards.
 */
export async function finishUserCreation(ctx: OperationContext, project: Project, user: UserRow): Promise<UserRow> {
  let result = user;
  if (project.config.createTeamOnSignUp) {
    const teamId = uuid();
    await insertTeam(ctx.db, {
      id: teamId,
      project_id: project.id,
      display_name: personalTeamName(user),
      profile_image_url: null,
      client_metadata: null,
      client_read_only_metadata: null,
      server_metadata: null,
      created_at: ctx.now,
    });
    await insertTeamMember(ctx.db, project.id, teamId, user.id, ctx.now);
    await updateUser(ctx.db, project.id, user.id, { selected_team_id: teamId });
    result = { ...user, selected_team_id: teamId };
  }
  for (const hook of ctx.runtime.hooks.userCreated) await hook(ctx, project, result);
  const team = result.selected_team_id ? await findTeam(ctx.db, project.id, result.selected_team_id) : null;
  await emitWebhookEvent(ctx, project.id, 'user.created', toServerUser(result, project.config, team));
  if (team) {
    await emitWebhookEvent(ctx, project.id, 'team.created', toServerTeam(team));
    await emitWebhookEvent(ctx, project.id, 'team_membership.created', { team_id: team.id, user_id: result.id });
  }
  return result;
}

/**
 * Upgrades an anonymous user in place (same id, client metadata kept) with the sign-up's fields,
 * as upstream's `createOrUpgradeAnonymousUser` does for password, OTP and OAuth sign-up: the user
 * stops being anonymous, and its personal team, still named for the anonymous user ("Personal
 * Team"), is renamed for the new identity ("<email>'s Team").
 */
export async function upgradeAnonymousUser(
  ctx: OperationContext,
  project: Project,
  user: UserRow,
  fields: NewUserFields,
): Promise<UserRow> {
  const columns: Updateable<UsersTable> = {
    ...(user.locale === null && ctx.auth?.accessType === 'client' && ctx.clientLocale ? { locale: ctx.clientLocale } : {}),
    ...fields,
    is_anonymous: false,
  };
  await applyPrimaryEmailChange(ctx, project.id, user, columns);
  await updateUser(ctx.db, project.id, user.id, columns);
  const upgraded = (await findUser(ctx.db, project.id, user.id))!;
  const oldName = personalTeamName(user);
  const newName = personalTeamName(upgraded);
  if (oldName !== newName) {
    for (const teamId of await listUserTeamIds(ctx.db, project.id, user.id)) {
      const team = await findTeam(ctx.db, project.id, teamId);
      if (team && team.display_name === oldName) await updateTeamRow(ctx.db, project.id, teamId, { display_name: newName });
    }
  }
  return upgraded;
}
