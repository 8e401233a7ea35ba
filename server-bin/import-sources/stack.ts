import { ConfigError } from '../config.ts';
import { jsonObject, millis, SOURCE_PAGE, type SqlSource } from './sql-source.ts';

/** Which Stack Auth project (and branch) to read. */
export interface StackSelection {
  projectId: string;
  /** Stack's config branch (default `main`). */
  branchId: string;
}

interface StackUser {
  projectUserId: string;
  displayName: string | null;
  profileImageUrl: string | null;
  clientMetadata: unknown;
  clientReadOnlyMetadata: unknown;
  serverMetadata: unknown;
  totpSecret: Buffer | null;
  requiresTotpMfa: boolean;
  signedUpAt: unknown;
}

interface StackTeam {
  teamId: string;
  displayName: string;
  profileImageUrl: string | null;
  clientMetadata: unknown;
  clientReadOnlyMetadata: unknown;
  serverMetadata: unknown;
  createdAt: unknown;
}

const inList = (ids: string[], from = 2) => ids.map((_, i) => `$${i + from}::uuid`).join(', ');

/**
 * A Stack Auth database (PostgreSQL URL; the tables of its Prisma schema,
 * apps/backend/prisma/schema.prisma upstream) as import records for one project's tenancy: every
 * `Team` first, then every non-anonymous `ProjectUser` in id order (1,000 per query) with its
 * primary email `ContactChannel` (verified flag, used for sign-in), the bcrypt hash of its
 * `PasswordAuthMethod`, its TOTP secret (when `requiresTotpMfa`), `ProjectUserOAuthAccount` links
 * (`configOAuthProviderId` + `providerAccountId`), `TeamMember` rows with their
 * `TeamMemberDirectPermission`s, and its `ProjectUserDirectPermission`s. Stack's ids are UUIDs and
 * are kept, so apps that stored user or team ids keep working.
 *
 * @throws ConfigError when the project has no tenancy on that branch.
 */
export async function* stackRecords(source: SqlSource, selection: StackSelection): AsyncGenerator<Record<string, unknown>> {
  const tenancies = await source.query<{ id: string }>(
    `select "id"::text as id from "Tenancy" where "projectId" = $1 and "branchId" = $2 and "organizationId" is null`,
    [selection.projectId, selection.branchId],
  );
  if (tenancies.length === 0)
    throw new ConfigError(
      `the Stack database has no project ${selection.projectId} on branch ${selection.branchId} (--stack-project, --stack-branch)`,
    );
  const tenancy = tenancies[0]!.id;

  for (let after = '00000000-0000-0000-0000-000000000000'; ; ) {
    const teams = await source.query<StackTeam>(
      `select "teamId"::text as "teamId", "displayName", "profileImageUrl", "clientMetadata", "clientReadOnlyMetadata", "serverMetadata", "createdAt"
         from "Team" where "tenancyId" = $1::uuid and "teamId" > $2::uuid order by "teamId" limit ${SOURCE_PAGE}`,
      [tenancy, after],
    );
    if (teams.length === 0) break;
    for (const team of teams)
      yield {
        type: 'team',
        id: team.teamId,
        display_name: team.displayName,
        ...(team.profileImageUrl ? { profile_image_url: team.profileImageUrl } : {}),
        ...(millis(team.createdAt) !== undefined ? { created_at_millis: millis(team.createdAt) } : {}),
        ...metadataFields(team),
      };
    after = teams[teams.length - 1]!.teamId;
  }

  for (let after = '00000000-0000-0000-0000-000000000000'; ; ) {
    const users = await source.query<StackUser>(
      `select "projectUserId"::text as "projectUserId", "displayName", "profileImageUrl", "clientMetadata", "clientReadOnlyMetadata",
              "serverMetadata", "totpSecret", "requiresTotpMfa", "signedUpAt"
         from "ProjectUser" where "tenancyId" = $1::uuid and "projectUserId" > $2::uuid and not "isAnonymous"
         order by "projectUserId" limit ${SOURCE_PAGE}`,
      [tenancy, after],
    );
    if (users.length === 0) return;
    const ids = users.map((u) => u.projectUserId);
    const byUser = <T extends { projectUserId: string }>(rows: T[]) => {
      const map = new Map<string, T[]>();
      for (const row of rows) map.set(row.projectUserId, [...(map.get(row.projectUserId) ?? []), row]);
      return map;
    };
    const params = [tenancy, ...ids];
    const [emails, passwords, links, members, teamGrants, projectGrants] = await Promise.all([
      source.query<{ projectUserId: string; value: string; isVerified: boolean; usedForAuth: string | null }>(
        `select "projectUserId"::text as "projectUserId", "value", "isVerified", "usedForAuth"::text as "usedForAuth" from "ContactChannel"
          where "tenancyId" = $1::uuid and "type" = 'EMAIL' and "isPrimary" = 'TRUE' and "projectUserId" in (${inList(ids)})`,
        params,
      ),
      source.query<{ projectUserId: string; passwordHash: string }>(
        `select "projectUserId"::text as "projectUserId", "passwordHash" from "PasswordAuthMethod" where "tenancyId" = $1::uuid and "projectUserId" in (${inList(ids)})`,
        params,
      ),
      source.query<{ projectUserId: string; configOAuthProviderId: string; providerAccountId: string; email: string | null }>(
        `select "projectUserId"::text as "projectUserId", "configOAuthProviderId", "providerAccountId", "email" from "ProjectUserOAuthAccount"
          where "tenancyId" = $1::uuid and "projectUserId" in (${inList(ids)}) order by "createdAt"`,
        params,
      ),
      source.query<{ projectUserId: string; teamId: string }>(
        `select "projectUserId"::text as "projectUserId", "teamId"::text as "teamId" from "TeamMember"
          where "tenancyId" = $1::uuid and "projectUserId" in (${inList(ids)}) order by "teamId"`,
        params,
      ),
      source.query<{ projectUserId: string; teamId: string; permissionId: string }>(
        `select "projectUserId"::text as "projectUserId", "teamId"::text as "teamId", "permissionId" from "TeamMemberDirectPermission"
          where "tenancyId" = $1::uuid and "projectUserId" in (${inList(ids)}) order by "permissionId"`,
        params,
      ),
      source.query<{ projectUserId: string; permissionId: string }>(
        `select "projectUserId"::text as "projectUserId", "permissionId" from "ProjectUserDirectPermission"
          where "tenancyId" = $1::uuid and "projectUserId" in (${inList(ids)}) order by "permissionId"`,
        params,
      ),
    ]);
    const emailOf = byUser(emails);
    const passwordOf = byUser(passwords);
    const linksOf = byUser(links);
    const membersOf = byUser(members);
    const teamGrantsOf = byUser(teamGrants);
    const projectGrantsOf = byUser(projectGrants);
    for (const user of users) {
      const id = user.projectUserId;
      const email = emailOf.get(id)?.[0];
      const grants = teamGrantsOf.get(id) ?? [];
      const oauth = (linksOf.get(id) ?? []).map((l) => ({ id: l.configOAuthProviderId, account_id: l.providerAccountId, email: l.email }));
      yield {
        id,
        ...(email
          ? {
              primary_email: email.value,
              primary_email_verified: email.isVerified === true,
              primary_email_auth_enabled: email.usedForAuth === 'TRUE',
            }
          : {}),
        ...(user.displayName ? { display_name: user.displayName } : {}),
        ...(user.profileImageUrl ? { profile_image_url: user.profileImageUrl } : {}),
        ...(millis(user.signedUpAt) !== undefined ? { signed_up_at_millis: millis(user.signedUpAt) } : {}),
        ...metadataFields(user),
        ...(passwordOf.get(id)?.[0] ? { password_hash: passwordOf.get(id)![0]!.passwordHash } : {}),
        ...(user.totpSecret && user.requiresTotpMfa ? { totp_secret_base64: Buffer.from(user.totpSecret).toString('base64') } : {}),
        ...(oauth.length > 0 ? { oauth_providers: oauth } : {}),
        teams: (membersOf.get(id) ?? []).map((m) => ({
          id: m.teamId,
          permissions: grants.filter((g) => g.teamId === m.teamId).map((g) => g.permissionId),
        })),
        project_permissions: (projectGrantsOf.get(id) ?? []).map((g) => g.permissionId),
      };
    }
    after = users[users.length - 1]!.projectUserId;
  }
}

/** Stack's three metadata columns (jsonb) as the record's fields, when set. */
function metadataFields(row: { clientMetadata?: unknown; clientReadOnlyMetadata?: unknown; serverMetadata?: unknown }) {
  const out: Record<string, unknown> = {};
  const client = jsonObject(row.clientMetadata);
  const readOnly = jsonObject(row.clientReadOnlyMetadata);
  const server = jsonObject(row.serverMetadata);
  if (client) out.client_metadata = client;
  if (readOnly) out.client_read_only_metadata = readOnly;
  if (server) out.server_metadata = server;
  return out;
}
