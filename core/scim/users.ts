import { domainToASCII } from 'node:url';
import {
  findUser,
  findUserByAuthEmail,
  insertNewUser,
  finishUserCreation,
  updateUser,
  deleteUserAndNotify,
  type UserRow,
} from '../users/index.ts';
import { listUserTeamIds } from '../teams/index.ts';
import { findVerifiedDomain } from '../team-domains/index.ts';
import { normalizeEmail } from '../lib/email.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { boundedString, objectBody, optionalString, SCHEMA, scimBoolean, ScimError } from './protocol.ts';
import { activateMember, deactivateMember } from './membership.ts';
import { deleteScimUser, findScimUser, findScimUserByUserName, insertScimUser, updateScimUser, type ScimUserRow } from './queries.ts';
import { scimTime, scimVersion, type ScimScope } from './scope.ts';

/** The SCIM User resource (RFC 7643 §4.1) of a provisioned user. */
export function toScimUser(scope: ScimScope, row: ScimUserRow, user: UserRow): Record<string, unknown> {
  const name: Record<string, string> = {};
  if (row.given_name) name.givenName = row.given_name;
  if (row.family_name) name.familyName = row.family_name;
  if (row.given_name || row.family_name) name.formatted = [row.given_name, row.family_name].filter(Boolean).join(' ');
  return {
    schemas: [SCHEMA.user],
    id: row.user_id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    userName: row.user_name,
    ...(Object.keys(name).length > 0 ? { name } : {}),
    ...(user.display_name ? { displayName: user.display_name } : {}),
    emails: user.primary_email ? [{ value: user.primary_email, type: 'work', primary: true }] : [],
    active: row.scim_active,
    meta: {
      resourceType: 'User',
      created: scimTime(row.created_at),
      lastModified: scimTime(row.updated_at),
      location: `${scope.baseUrl}/Users/${row.user_id}`,
      version: scimVersion(row.updated_at),
    },
  };
}

/** The attributes Gatehouse keeps of a User body (RFC 7643 §4.1), validated and bounded. */
export interface UserAttributes {
  userName: string;
  externalId: string | null;
  givenName: string | null;
  familyName: string | null;
  displayName: string | null;
  email: string | null;
  active: boolean;
}

/** The primary (else first) email of a SCIM `emails` value, or null. */
function primaryEmail(emails: unknown): string | null {
  if (emails === undefined || emails === null) return null;
  if (!Array.isArray(emails) || emails.length > 20)
    throw new ScimError(400, 'emails must be an array of at most 20 entries.', 'invalidValue');
  const entries = emails.map((e) => objectBody(e));
  const chosen = entries.find((e) => e.primary === true || e.primary === 'true') ?? entries[0];
  return chosen ? boundedString(chosen.value, 'emails.value') : null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Reads a full User body (POST or PUT). */
export function readUserBody(body: unknown): UserAttributes {
  const b = objectBody(body);
  const name = b.name === undefined || b.name === null ? {} : objectBody(b.name);
  const userName = boundedString(b.userName, 'userName');
  const email = primaryEmail(b.emails) ?? (EMAIL.test(userName) ? userName : null);
  if (email !== null && !EMAIL.test(email)) throw new ScimError(400, 'emails.value must be an email address.', 'invalidValue');
  return {
    userName,
    externalId: optionalString(b.externalId, 'externalId'),
    givenName: optionalString(name.givenName, 'name.givenName'),
    familyName: optionalString(name.familyName, 'name.familyName'),
    displayName: optionalString(b.displayName, 'displayName') ?? optionalString(name.formatted, 'name.formatted'),
    email: email === null ? null : normalizeEmail(email),
    active: b.active === undefined ? true : scimBoolean(b.active, 'active'),
  };
}

/** The User's provisioning row, or 404 noTarget-style (RFC 7644 §3.12: 404 "Resource … not found"). */
export async function getScimUser(scope: ScimScope, userId: string): Promise<{ row: ScimUserRow; user: UserRow }> {
  const row = await findScimUser(scope.ctx.db, scope.teamId, userId);
  const user = row ? await findUser(scope.ctx.db, scope.project.id, row.user_id) : null;
  if (!row || !user) throw new ScimError(404, `User ${userId} not found.`);
  return { row, user };
}

/**
 * `POST /Users` (RFC 7644 §3.3): provisions a user into the team. The account is the project user
 * whose sign-in email is the SCIM user's email when there is one (linked, `created_by_scim`
 * false), else a new user with that email (verified when this team has verified its domain).
 * An active user becomes a team member with the member defaults and its groups' permissions.
 * 409 `uniqueness` when the team already provisioned this `userName` or this account.
 */
export async function createScimUser(scope: ScimScope, body: unknown): Promise<Record<string, unknown>> {
  const attrs = readUserBody(body);
  const { ctx, project, teamId } = scope;
  return ctx.transaction(async (tx) => {
    if (await findScimUserByUserName(tx.db, teamId, attrs.userName)) {
      throw new ScimError(409, `User ${attrs.userName} already exists in this team.`, 'uniqueness');
    }
    let user = attrs.email ? await findUserByAuthEmail(tx.db, project.id, attrs.email) : null;
    const createdByScim = user === null;
    if (user && (await findScimUser(tx.db, teamId, user.id))) {
      throw new ScimError(409, `The account of ${attrs.email} is already provisioned in this team.`, 'uniqueness');
    }
    if (!user) {
      const domain = attrs.email ? domainToASCII(attrs.email.slice(attrs.email.lastIndexOf('@') + 1)) : null;
      const verified = domain ? (await findVerifiedDomain(tx.db, project.id, domain))?.team_id === teamId : false;
      user = await finishUserCreation(
        tx,
        project,
        await insertNewUser(tx, project, {
          display_name: attrs.displayName,
          primary_email: attrs.email,
          primary_email_verified: verified,
          primary_email_auth_enabled: attrs.email !== null,
        }),
      );
    }
    const row: ScimUserRow = {
      project_id: project.id,
      team_id: teamId,
      user_id: user.id,
      user_name: attrs.userName,
      external_id: attrs.externalId,
      given_name: attrs.givenName,
      family_name: attrs.familyName,
      scim_active: attrs.active,
      created_by_scim: createdByScim,
      created_at: tx.now,
      updated_at: tx.now,
    };
    await insertScimUser(tx.db, row);
    if (attrs.active) await activateMember(tx, project, teamId, user.id);
    await emitWebhookEvent(tx, project.id, 'scim_user.provisioned', { team_id: teamId, user_id: user.id, active: attrs.active });
    return toScimUser(scope, row, user);
  });
}

/**
 * Stores new attributes of a provisioned user (PUT, PATCH): the SCIM row, the account's display
 * name, and (only for an account SCIM created) its email. A change of `active` activates or
 * deactivates the membership (deactivation revokes every session at once).
 */
export async function applyUserAttributes(scope: ScimScope, userId: string, attrs: UserAttributes): Promise<Record<string, unknown>> {
  const { ctx, project, teamId } = scope;
  return ctx.transaction(async (tx) => {
    const { row } = await getScimUser({ ...scope, ctx: tx }, userId);
    if (attrs.userName !== row.user_name) {
      const other = await findScimUserByUserName(tx.db, teamId, attrs.userName);
      if (other && other.user_id !== userId) throw new ScimError(409, `User ${attrs.userName} already exists in this team.`, 'uniqueness');
    }
    const fields = {
      user_name: attrs.userName,
      external_id: attrs.externalId,
      given_name: attrs.givenName,
      family_name: attrs.familyName,
      scim_active: attrs.active,
      updated_at: tx.now,
    };
    await updateScimUser(tx.db, teamId, userId, fields);
    const userFields: Parameters<typeof updateUser>[3] = {};
    if (attrs.displayName !== null) userFields.display_name = attrs.displayName;
    if (Object.keys(userFields).length > 0) await updateUser(tx.db, project.id, userId, userFields);
    if (attrs.active && !row.scim_active) await activateMember(tx, project, teamId, userId);
    if (!attrs.active && row.scim_active) await deactivateMember(tx, project, teamId, userId);
    const type = !attrs.active && row.scim_active ? 'scim_user.deprovisioned' : 'scim_user.updated';
    await emitWebhookEvent(tx, project.id, type, { team_id: teamId, user_id: userId, active: attrs.active, deleted: false });
    const user = (await findUser(tx.db, project.id, userId))!;
    return toScimUser(scope, { ...row, ...fields }, user);
  });
}

/** The current attributes of a provisioned user, as PATCH starts from them. */
export function currentAttributes(row: ScimUserRow, user: UserRow): UserAttributes {
  return {
    userName: row.user_name,
    externalId: row.external_id,
    givenName: row.given_name,
    familyName: row.family_name,
    displayName: user.display_name,
    email: user.primary_email,
    active: row.scim_active,
  };
}

/**
 * `DELETE /Users/{id}` (RFC 7644 §3.6): deprovisions the user: team membership and every session
 * go at once, and the SCIM record. The whole account is deleted when it exists only through this
 * team: SCIM created it, its email's domain is verified by this team, and it is in no other team.
 */
export async function deleteScimUserResource(scope: ScimScope, userId: string): Promise<void> {
  const { ctx, project, teamId } = scope;
  await ctx.transaction(async (tx) => {
    const { row, user } = await getScimUser({ ...scope, ctx: tx }, userId);
    await deactivateMember(tx, project, teamId, userId);
    await deleteScimUser(tx.db, teamId, userId);
    let deleted = false;
    if (row.created_by_scim && user.primary_email) {
      const domain = domainToASCII(user.primary_email.slice(user.primary_email.lastIndexOf('@') + 1));
      const holder = await findVerifiedDomain(tx.db, project.id, domain);
      if (holder?.team_id === teamId && (await listUserTeamIds(tx.db, project.id, userId)).length === 0) {
        await deleteUserAndNotify(tx, project.id, userId);
        deleted = true;
      }
    }
    await emitWebhookEvent(tx, project.id, 'scim_user.deprovisioned', { team_id: teamId, user_id: userId, active: false, deleted });
  });
}
