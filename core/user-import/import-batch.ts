import type { Insertable } from 'kysely';
import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import type {
  OAuthAccountsTable,
  ProjectPermissionGrantsTable,
  TeamMembersTable,
  TeamPermissionGrantsTable,
  TeamsTable,
  UsersTable,
} from '../storage/tables.ts';
import { isSupportedPasswordHash } from '../auth-password/index.ts';
import { normalizeEmail } from '../lib/email.ts';
import { toJsonText } from '../lib/json-text.ts';
import { uuid } from '../lib/random.ts';
import { sealTotpSecret } from '../mfa/index.ts';
import { isSystemPermission } from '../permissions/index.ts';
import { insertMany } from '../storage/bulk-insert.ts';
import { inList } from '../storage/in-list.ts';
import {
  importUserId,
  isExportFrame,
  isProblem,
  parseImportLine,
  type ImportedTeam,
  type ImportedUser,
  type RecordProblem,
} from './record.ts';

/** Options of one import call. */
export interface ImportOptions {
  /** Validate everything and write nothing; results say what would happen. */
  readonly dryRun: boolean;
  /** Accept the legacy, insecure digest formats (`$legacy-md5$…`, `$legacy-sha256$…`). */
  readonly allowInsecureHashes: boolean;
}

/**
 * The outcome of one line: `created` / `updated` (`would_create` / `would_update` in a dry run)
 * with the record's Gatehouse id, or `failed` with the problem. Blank lines have no result.
 */
export interface LineResult {
  line: number;
  status: 'created' | 'updated' | 'would_create' | 'would_update' | 'failed';
  type?: 'user' | 'team';
  id?: string;
  error?: RecordProblem;
}

type Prepared =
  | { line: number; kind: 'team'; id: string; exists: boolean; record: ImportedTeam }
  | { line: number; kind: 'user'; id: string; exists: boolean; record: ImportedUser; email: string | null; authEmail: boolean };

/** Runs `query` once on the distinct `values` (no query for none). */
async function lookup<T>(values: readonly string[], query: (distinct: string[]) => Promise<T[]>): Promise<T[]> {
  const distinct = [...new Set(values)];
  return distinct.length === 0 ? [] : query(distinct);
}

/**
 * A batch whose lines are parsed and checked against each other (no database read yet): the
 * failures found so far, and the records left to resolve and write ({@link importChecked}).
 */
export interface CheckedBatch {
  readonly results: LineResult[];
  readonly prepared: Prepared[];
}

/**
 * The first, database-free half of {@link importBatch}: parses every line and checks what needs
 * no database (schema, password-hash format, OAuth providers of the project's configuration,
 * duplicate ids, source ids and sign-in emails within the batch), deriving each user's id. A
 * streamed import runs it on the next batch while the current one is being written.
 *
 * @param firstLine the line number of `lines[0]` in the caller's file (1-based), for the results.
 */
export function checkBatch(project: Project, lines: readonly string[], firstLine: number, options: ImportOptions): CheckedBatch {
  const results: LineResult[] = [];
  const fail = (line: number, problem: RecordProblem, type?: 'user' | 'team') =>
    results.push({ line, status: 'failed', ...(type ? { type } : {}), error: problem });
  const parsed: Array<{ line: number; record: ReturnType<typeof parseImportLine> }> = [];
  lines.forEach((text, i) => {
    if (text.trim() !== '' && !isExportFrame(text)) parsed.push({ line: firstLine + i, record: parseImportLine(text) });
  });

  const prepared: Prepared[] = [];
  const seenIds = new Set<string>();
  const seenEmails = new Map<string, number>();
  const seenSources = new Set<string>();
  for (const { line, record } of parsed) {
    if (isProblem(record)) {
      fail(line, record);
      continue;
    }
    if (record.type === 'team') {
      if (seenIds.has(record.id)) {
        fail(line, { code: 'DUPLICATE_RECORD', message: `Team ${record.id} appears twice in this batch.` }, 'team');
        continue;
      }
      seenIds.add(record.id);
      prepared.push({ line, kind: 'team', id: record.id, exists: false, record });
      continue;
    }
    if (record.password_hash && !isSupportedPasswordHash(record.password_hash, { allowInsecure: options.allowInsecureHashes })) {
      const legacy = isSupportedPasswordHash(record.password_hash, { allowInsecure: true });
      fail(
        line,
        {
          code: 'UNSUPPORTED_PASSWORD_HASH',
          message: legacy
            ? 'A legacy, insecure digest: import it with allow_insecure_hashes=true.'
            : 'The password hash is malformed or in no supported format (docs/migrating.md).',
        },
        'user',
      );
      continue;
    }
    const provider = record.oauth_providers?.find((p) => !project.config.oauthProviders.some((configured) => configured.id === p.id));
    if (provider) {
      fail(line, { code: 'UNKNOWN_OAUTH_PROVIDER', message: `OAuth provider ${provider.id} is not configured for this project.` }, 'user');
      continue;
    }
    const id = importUserId(project.id, record) ?? uuid();
    const duplicate = seenIds.has(id) || (record.source_id !== undefined && seenSources.has(record.source_id));
    if (duplicate) {
      fail(line, { code: 'DUPLICATE_RECORD', message: `User ${record.source_id ?? id} appears twice in this batch.` }, 'user');
      continue;
    }
    const email = record.primary_email ? normalizeEmail(record.primary_email) : null;
    const authEmail = email !== null && record.primary_email_auth_enabled !== false;
    if (authEmail && seenEmails.has(email)) {
      fail(line, { code: 'DUPLICATE_EMAIL', message: `${email} is also the sign-in email of line ${seenEmails.get(email)}.` }, 'user');
      continue;
    }
    seenIds.add(id);
    if (record.source_id !== undefined) seenSources.add(record.source_id);
    if (authEmail) seenEmails.set(email, line);
    prepared.push({ line, kind: 'user', id, exists: false, record, email, authEmail });
  }
  return { results, prepared };
}

/**
 * Imports one batch of NDJSON lines into `project`: parses and checks every
 * line first (schema, password-hash format, duplicate emails in the batch and in the project,
 * unknown teams, permissions and OAuth providers, provider accounts linked to another user),
 * then writes the good records in one transaction with multi-row inserts. A record that fails
 * is reported on its line and never stops the others; should the batch's transaction fail (a
 * concurrent write took an email), each record is retried in its own transaction, so no user
 * is ever half written. A record whose id already exists (its `id`, or the id derived from its
 * `source_id`) updates that user or team: the fields it gives replace the stored ones, and its
 * `teams`, `oauth_providers` and `project_permissions`, when given, replace the user's.
 * Imported users get no personal team and send no `user.created` webhooks.
 *
 * @param firstLine the line number of `lines[0]` in the caller's file (1-based), for the results.
 */
export async function importBatch(
  ctx: OperationContext,
  project: Project,
  lines: readonly string[],
  firstLine: number,
  options: ImportOptions,
): Promise<LineResult[]> {
  return importChecked(ctx, project, checkBatch(project, lines, firstLine, options), options);
}

/**
 * The second half of {@link importBatch}: checks a {@link checkBatch} result against what the
 * project holds (existing users by source id and id, sign-in emails, teams, permissions, linked
 * OAuth accounts: one query each) and writes the good records in one transaction.
 * @returns every line's result, in line order.
 */
export async function importChecked(
  ctx: OperationContext,
  project: Project,
  checked: CheckedBatch,
  options: ImportOptions,
): Promise<LineResult[]> {
  const { results, prepared } = checked;
  const fail = (line: number, problem: RecordProblem, type?: 'user' | 'team') =>
    results.push({ line, status: 'failed', ...(type ? { type } : {}), error: problem });
  // What the project already holds: one look-up per kind, whatever the batch's size. Ids are
  // looked up by the primary key alone and the project compared here: with `project_id = ?` next
  // to a list SQLite's planner preferred the project's index (a scan of all its users).
  const db = ctx.db;
  const dialect = ctx.runtime.storage.dialect;
  const teamsInBatch = new Set(prepared.filter((p) => p.kind === 'team').map((p) => p.id));
  const users = prepared.filter((p): p is Extract<Prepared, { kind: 'user' }> => p.kind === 'user');
  // A user the import made before is found by its source id (users.source_id), else by its id
  // (given, or derived from the source id: users imported before the column existed).
  const sourceHolders = new Map(
    (
      await lookup(
        users.flatMap((u) => (u.record.source_id === undefined ? [] : [u.record.source_id])),
        (chunk) =>
          db
            .selectFrom('users')
            .select(['id', 'source_id'])
            .where('project_id', '=', project.id)
            .where(inList(dialect, 'source_id', chunk))
            .execute(),
      )
    ).map((r) => [r.source_id!, r.id]),
  );
  for (const user of users) {
    const holder = user.record.source_id === undefined ? undefined : sourceHolders.get(user.record.source_id);
    if (holder !== undefined) user.id = holder;
  }
  const existingUsers = new Set(
    (
      await lookup(
        users.map((u) => u.id),
        (chunk) =>
          db
            .selectFrom('users')
            .select(['id', 'project_id'])
            .where(inList(dialect, 'id', chunk))
            .execute(),
      )
    )
      .filter((r) => r.project_id === project.id)
      .map((r) => r.id),
  );
  const referencedTeams = [...teamsInBatch, ...users.flatMap((u) => (u.record.teams ?? []).map((t) => t.id))];
  const existingTeams = new Set(
    (
      await lookup(referencedTeams, (chunk) =>
        db
          .selectFrom('teams')
          .select(['id', 'project_id'])
          .where(inList(dialect, 'id', chunk))
          .execute(),
      )
    )
      .filter((r) => r.project_id === project.id)
      .map((r) => r.id),
  );
  const emailHolders = new Map(
    (
      await lookup(
        users.filter((u) => u.authEmail).map((u) => u.email!),
        (chunk) =>
          db
            .selectFrom('users')
            .select(['id', 'primary_email'])
            .where('project_id', '=', project.id)
            .where(inList(dialect, 'primary_email', chunk))
            .where('primary_email_auth_enabled', '=', true)
            .execute(),
      )
    ).map((r) => [r.primary_email!, r.id]),
  );
  const linkedAccounts = await lookup(
    users.flatMap((u) => (u.record.oauth_providers ?? []).map((p) => p.account_id)),
    (chunk) =>
      db
        .selectFrom('oauth_accounts')
        .select(['provider_id', 'provider_account_id', 'user_id'])
        .where('project_id', '=', project.id)
        .where(inList(dialect, 'provider_account_id', chunk))
        .execute(),
  );
  const accountOwner = new Map(linkedAccounts.map((a) => [`${a.provider_id}\0${a.provider_account_id}`, a.user_id]));
  const definitions = await db.selectFrom('permission_definitions').select(['id', 'scope']).where('project_id', '=', project.id).execute();
  const defined: Definitions = {
    team: new Set(definitions.filter((d) => d.scope === 'team').map((d) => d.id)),
    project: new Set(definitions.filter((d) => d.scope === 'project').map((d) => d.id)),
  };
  const isTeamPermission = (id: string) => defined.team.has(id) || isSystemPermission(id);

  const ready: Prepared[] = [];
  const resolvedIds = new Set<string>();
  for (const item of prepared) {
    if (item.kind === 'team') {
      ready.push({ ...item, exists: existingTeams.has(item.id) });
      continue;
    }
    const { record, line } = item;
    const problem = ((): RecordProblem | null => {
      if (resolvedIds.has(item.id)) return { code: 'DUPLICATE_RECORD', message: `User ${item.id} appears twice in this batch.` };
      resolvedIds.add(item.id);
      const holder = item.authEmail ? emailHolders.get(item.email!) : undefined;
      if (holder !== undefined && holder !== item.id)
        return { code: 'DUPLICATE_EMAIL', message: `${item.email} is already the sign-in email of another user of this project.` };
      const team = record.teams?.find((t) => !teamsInBatch.has(t.id) && !existingTeams.has(t.id));
      if (team)
        return {
          code: 'UNKNOWN_TEAM',
          message: `Team ${team.id} does not exist in this project (import it first, as a "type": "team" line).`,
        };
      const teamPermission = record.teams?.flatMap((t) => t.permissions ?? []).find((p) => !isTeamPermission(p));
      if (teamPermission)
        return { code: 'UNKNOWN_PERMISSION', message: `Team permission ${teamPermission} is not defined in this project.` };
      const projectPermission = record.project_permissions?.find((p) => !defined.project.has(p));
      if (projectPermission)
        return { code: 'UNKNOWN_PERMISSION', message: `Project permission ${projectPermission} is not defined in this project.` };
      const taken = record.oauth_providers?.find((p) => {
        const owner = accountOwner.get(`${p.id}\0${p.account_id}`);
        return owner !== undefined && owner !== item.id;
      });
      if (taken)
        return {
          code: 'OAUTH_ACCOUNT_ALREADY_LINKED',
          message: `The ${taken.id} account ${taken.account_id} is already linked to another user.`,
        };
      return null;
    })();
    if (problem) fail(line, problem, 'user');
    else ready.push({ ...item, exists: existingUsers.has(item.id) });
  }

  const done = (item: Prepared, dry: boolean): LineResult => ({
    line: item.line,
    type: item.kind,
    id: item.id,
    status: dry ? (item.exists ? 'would_update' : 'would_create') : item.exists ? 'updated' : 'created',
  });
  if (options.dryRun) {
    results.push(...ready.map((item) => done(item, true)));
  } else if (ready.length > 0) {
    try {
      await ctx.transaction((tx) => writeRecords(tx, project, ready, defined));
      results.push(...ready.map((item) => done(item, false)));
    } catch {
      // One record broke the batch (a concurrent write): retry each alone, report the culprits.
      for (const item of ready) {
        try {
          await ctx.transaction((tx) => writeRecords(tx, project, [item], defined));
          results.push(done(item, false));
        } catch (error) {
          const unique = ctx.runtime.storage.isUniqueViolation(error);
          fail(
            item.line,
            unique && item.kind === 'user' && item.authEmail
              ? { code: 'DUPLICATE_EMAIL', message: `${item.email} is already the sign-in email of another user of this project.` }
              : {
                  code: 'WRITE_FAILED',
                  message: unique ? 'The record conflicts with data written meanwhile.' : 'The record could not be written.',
                },
            item.kind,
          );
        }
      }
    }
  }
  return results.sort((a, b) => a.line - b.line);
}

const bool = (value: boolean | undefined, fallback: boolean): boolean => value ?? fallback;
const json = (value: unknown) => (value === undefined ? undefined : toJsonText(value));

/** Column values a user record gives (undefined: not given, left as stored on an update). */
function userColumns(ctx: OperationContext, project: Project, item: Extract<Prepared, { kind: 'user' }>): Partial<Insertable<UsersTable>> {
  const r = item.record;
  const columns: Partial<Insertable<UsersTable>> = {
    display_name: r.display_name === '' ? null : r.display_name,
    primary_email: r.primary_email === undefined ? undefined : item.email,
    primary_email_verified: r.primary_email_verified === undefined ? undefined : bool(r.primary_email_verified, false),
    primary_email_auth_enabled: r.primary_email === undefined && r.primary_email_auth_enabled === undefined ? undefined : item.authEmail,
    profile_image_url: r.profile_image_url,
    signed_up_at: r.signed_up_at_millis,
    client_metadata: json(r.client_metadata),
    client_read_only_metadata: json(r.client_read_only_metadata),
    server_metadata: json(r.server_metadata),
    source_id: r.source_id,
    password_hash: r.password_hash,
    totp_secret_base64: r.totp_secret_base64
      ? sealTotpSecret(ctx.runtime, project.id, item.id, r.totp_secret_base64)
      : r.totp_secret_base64,
  };
  for (const key of Object.keys(columns) as Array<keyof typeof columns>) if (columns[key] === undefined) delete columns[key];
  return columns;
}

/** The permission ids the project defines, by scope. */
interface Definitions {
  readonly team: ReadonlySet<string>;
  readonly project: ReadonlySet<string>;
}

const RISK_SCORES = JSON.stringify({ sign_up: { bot: 0, free_trial_abuse: 0 } });

/** Writes prepared records in the caller's transaction: teams first, then users and what hangs off them. */
async function writeRecords(ctx: OperationContext, project: Project, items: readonly Prepared[], defined: Definitions): Promise<void> {
  const db = ctx.db;
  const dialect = ctx.runtime.storage.dialect;
  const now = ctx.now;
  const newTeams: Insertable<TeamsTable>[] = [];
  for (const item of items) {
    if (item.kind !== 'team') continue;
    const r = item.record;
    const columns = {
      display_name: r.display_name,
      profile_image_url: r.profile_image_url ?? null,
      client_metadata: toJsonText(r.client_metadata ?? null),
      client_read_only_metadata: toJsonText(r.client_read_only_metadata ?? null),
      server_metadata: toJsonText(r.server_metadata ?? null),
    };
    if (item.exists) await db.updateTable('teams').set(columns).where('project_id', '=', project.id).where('id', '=', item.id).execute();
    else newTeams.push({ id: item.id, project_id: project.id, created_at: r.created_at_millis ?? now, ...columns });
  }
  await insertMany(db, dialect, 'teams', newTeams);

  const users = items.filter((p): p is Extract<Prepared, { kind: 'user' }> => p.kind === 'user');
  const newUsers: Insertable<UsersTable>[] = [];
  for (const item of users) {
    const columns = userColumns(ctx, project, item);
    if (item.exists) {
      if (Object.keys(columns).length > 0)
        await db.updateTable('users').set(columns).where('project_id', '=', project.id).where('id', '=', item.id).execute();
      const replaced = (table: 'team_members' | 'team_permission_grants' | 'project_permission_grants' | 'oauth_accounts') =>
        db.deleteFrom(table).where('project_id', '=', project.id).where('user_id', '=', item.id).execute();
      if (item.record.teams) {
        await replaced('team_permission_grants');
        await replaced('team_members');
      }
      if (item.record.project_permissions) await replaced('project_permission_grants');
      if (item.record.oauth_providers) await replaced('oauth_accounts');
      continue;
    }
    const signedUpAt = item.record.signed_up_at_millis ?? now;
    newUsers.push({
      id: item.id,
      project_id: project.id,
      display_name: null,
      primary_email: null,
      primary_email_verified: false,
      primary_email_auth_enabled: false,
      primary_email_channel_id: null,
      profile_image_url: null,
      signed_up_at: signedUpAt,
      last_active_at: signedUpAt,
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
      risk_scores: RISK_SCORES,
      source_id: null,
      ...columns,
    } as Insertable<UsersTable>);
  }
  await insertMany(db, dialect, 'users', newUsers);

  // Memberships, grants and provider links: as the record lists them, else the project's defaults
  // (new users only; an update without the field keeps what is stored).
  const memberDefaults = project.config.teamMemberDefaultPermissions.filter((id) => defined.team.has(id) || isSystemPermission(id));
  const userDefaults = project.config.userDefaultPermissions.filter((id) => defined.project.has(id));
  const members: Insertable<TeamMembersTable>[] = [];
  const teamGrants: Insertable<TeamPermissionGrantsTable>[] = [];
  const projectGrants: Insertable<ProjectPermissionGrantsTable>[] = [];
  const links: Insertable<OAuthAccountsTable>[] = [];
  for (const item of users) {
    const r = item.record;
    const memberships = new Map((r.teams ?? []).map((t) => [t.id, t.permissions]));
    for (const [teamId, permissions] of memberships) {
      members.push({
        project_id: project.id,
        team_id: teamId,
        user_id: item.id,
        display_name: null,
        profile_image_url: null,
        created_at: now,
      });
      for (const permission of new Set(permissions ?? memberDefaults))
        teamGrants.push({ project_id: project.id, team_id: teamId, user_id: item.id, permission_id: permission, created_at: now });
    }
    const granted = r.project_permissions ?? (item.exists ? [] : userDefaults);
    for (const permission of new Set(granted))
      projectGrants.push({ project_id: project.id, user_id: item.id, permission_id: permission, created_at: now });
    for (const link of r.oauth_providers ?? []) {
      links.push({
        id: uuid(),
        project_id: project.id,
        user_id: item.id,
        provider_id: link.id,
        provider_account_id: link.account_id,
        email: link.email ?? null,
        allow_sign_in: true,
        allow_connected_accounts: true,
        created_at: now,
      });
    }
  }
  await insertMany(db, dialect, 'team_members', members);
  await insertMany(db, dialect, 'team_permission_grants', teamGrants);
  await insertMany(db, dialect, 'project_permission_grants', projectGrants);
  await insertMany(db, dialect, 'oauth_accounts', links);
}
