import type { OperationContext, ReplyStream } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { fromJsonText } from '../lib/json-text.ts';
import { openTotpSecret } from '../mfa/index.ts';
import { EXPORT_KDF, sealExportSecrets } from './export-secrets.ts';
import type { ImportedTeam, ImportedUser } from './record.ts';

/** Users (or teams) read per page of an export. */
const PAGE = 500;

/** Name and version of the export format, in the first line of every export. */
export const EXPORT_FORMAT = 'gatehouse-users/1';

/**
 * The first line of an export: what it is, and how its secrets are sealed (null: it has none).
 * Importing skips it; `gatehouse import` reads `secrets` to open the sealed boxes.
 */
export interface ExportHeader {
  type: 'export';
  format: typeof EXPORT_FORMAT;
  project_id: string;
  exported_at_millis: number;
  /** The user id after which this answer starts (null: from the start, teams included). */
  cursor: string | null;
  secrets: null | { cipher: 'aes-256-gcm'; kdf: typeof EXPORT_KDF; salt: string };
}

/** An exported user: an import record, with `sealed_secrets` in place of the secrets when included. */
export type ExportedUser = { type: 'user'; id: string } & Omit<ImportedUser, 'type' | 'id' | 'password_hash' | 'totp_secret_base64'> & {
    sealed_secrets?: string;
  };

/** How an export seals secrets: the derived key and the salt it came from (null: no secrets). */
export type ExportSealing = { key: Buffer; salt: string } | null;

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const metadata = (text: string | null) => (text === null ? undefined : (fromJsonText(text) as Record<string, unknown>));

/**
 * The lines of a project's export, produced page by page (PAGE users at a time, keyset on id, so
 * memory stays flat and each page is one short read): the header, then every team (only when
 * starting from the beginning), then every non-anonymous user ordered by id after `cursor`, each
 * with its contact email, OAuth links, memberships with their permissions and project permissions,
 * and last `{"type":"end"}`, so a reader can tell a complete answer from a dropped connection.
 * A client that loses the connection asks again with `cursor` = the last user id it wrote.
 *
 * Stops between pages when `signal` aborts (the client went away).
 */
export function exportStream(ctx: OperationContext, project: Project, cursor: string | null, sealing: ExportSealing): ReplyStream {
  return async function* (signal) {
    const header: ExportHeader = {
      type: 'export',
      format: EXPORT_FORMAT,
      project_id: project.id,
      exported_at_millis: ctx.now,
      cursor,
      secrets: sealing ? { cipher: 'aes-256-gcm', kdf: EXPORT_KDF, salt: sealing.salt } : null,
    };
    yield line(header);
    if (cursor === null) {
      for (let after = ''; !signal.aborted; ) {
        const teams = await ctx.db
          .selectFrom('teams')
          .selectAll()
          .where('project_id', '=', project.id)
          .where('id', '>', after)
          .orderBy('id')
          .limit(PAGE)
          .execute();
        if (teams.length === 0) break;
        yield teams
          .map((t) => {
            const team: ImportedTeam = {
              type: 'team',
              id: t.id,
              display_name: t.display_name,
              profile_image_url: t.profile_image_url,
              created_at_millis: t.created_at,
              client_metadata: metadata(t.client_metadata),
              client_read_only_metadata: metadata(t.client_read_only_metadata),
              server_metadata: metadata(t.server_metadata),
            };
            return line(team);
          })
          .join('');
        after = teams[teams.length - 1]!.id;
      }
    }
    for (let after = cursor ?? ''; !signal.aborted; ) {
      const page = await exportPage(ctx, project, after, sealing);
      if (page.length === 0) break;
      yield page.map(line).join('');
      after = page[page.length - 1]!.id;
    }
    if (!signal.aborted) yield line({ type: 'end' });
  };
}

/** One page of users after `after` (by id), with everything the import format carries. */
async function exportPage(ctx: OperationContext, project: Project, after: string, sealing: ExportSealing): Promise<ExportedUser[]> {
  const db = ctx.db;
  const users = await db
    .selectFrom('users')
    .selectAll()
    .where('project_id', '=', project.id)
    .where('id', '>', after)
    .where('is_anonymous', '=', false)
    .orderBy('id')
    .limit(PAGE)
    .execute();
  if (users.length === 0) return [];
  const ids = users.map((u) => u.id);
  const [links, members, teamGrants, projectGrants] = await Promise.all([
    db
      .selectFrom('oauth_accounts')
      .select(['user_id', 'provider_id', 'provider_account_id', 'email'])
      .where('project_id', '=', project.id)
      .where('user_id', 'in', ids)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('team_members')
      .select(['user_id', 'team_id'])
      .where('project_id', '=', project.id)
      .where('user_id', 'in', ids)
      .orderBy('team_id')
      .execute(),
    db
      .selectFrom('team_permission_grants')
      .select(['user_id', 'team_id', 'permission_id'])
      .where('project_id', '=', project.id)
      .where('user_id', 'in', ids)
      .orderBy('permission_id')
      .execute(),
    db
      .selectFrom('project_permission_grants')
      .select(['user_id', 'permission_id'])
      .where('project_id', '=', project.id)
      .where('user_id', 'in', ids)
      .orderBy('permission_id')
      .execute(),
  ]);
  const group = <T extends { user_id: string }>(rows: T[]) => {
    const by = new Map<string, T[]>();
    for (const row of rows) by.set(row.user_id, [...(by.get(row.user_id) ?? []), row]);
    return by;
  };
  const linksOf = group(links);
  const membersOf = group(members);
  const teamGrantsOf = group(teamGrants);
  const projectGrantsOf = group(projectGrants);
  return users.map((u) => {
    const grants = teamGrantsOf.get(u.id) ?? [];
    const user: ExportedUser = {
      type: 'user',
      id: u.id,
      ...(u.source_id === null ? {} : { source_id: u.source_id }),
      primary_email: u.primary_email,
      primary_email_verified: u.primary_email_verified,
      primary_email_auth_enabled: u.primary_email_auth_enabled,
      display_name: u.display_name,
      profile_image_url: u.profile_image_url,
      signed_up_at_millis: u.signed_up_at,
      client_metadata: metadata(u.client_metadata),
      client_read_only_metadata: metadata(u.client_read_only_metadata),
      server_metadata: metadata(u.server_metadata),
      oauth_providers: (linksOf.get(u.id) ?? []).map((l) => ({ id: l.provider_id, account_id: l.provider_account_id, email: l.email })),
      teams: (membersOf.get(u.id) ?? []).map((m) => ({
        id: m.team_id,
        permissions: grants.filter((g) => g.team_id === m.team_id).map((g) => g.permission_id),
      })),
      project_permissions: (projectGrantsOf.get(u.id) ?? []).map((g) => g.permission_id),
    };
    for (const key of ['client_metadata', 'client_read_only_metadata', 'server_metadata'] as const)
      if (user[key] === undefined) delete user[key];
    if (sealing) {
      const secrets = { password_hash: u.password_hash, totp_secret_base64: openTotpSecret(ctx.runtime, u) };
      if (secrets.password_hash !== null || secrets.totp_secret_base64 !== null)
        user.sealed_secrets = sealExportSecrets(sealing.key, u.id, secrets);
    }
    return user;
  });
}
