import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import bcrypt from 'bcryptjs';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { api, createProject, createProjectKeys } from '../../test/helpers/api.ts';
import { postgresUrl, testDialects } from '../../test/helpers/dialects.ts';
import { describeWithServer } from '../../test/helpers/suite.ts';
import type { TestServer } from '../../test/helpers/server.ts';
import { runImportCommand } from '../import-command.ts';

/**
 * `gatehouse import --from <vendor>`: each vendor's source made as the vendor makes it (Clerk's
 * CSV and Auth0's exports with bcryptjs hashes, a real Better Auth database written by Better
 * Auth's own sign-up, a Supabase `auth` schema with bcrypt as GoTrue stores it) is imported through
 * the CLI; the users sign in with their original passwords, the stored hash becomes argon2id on
 * that sign-in, and OAuth links let the next OAuth sign-in find the user.
 */
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-vendors-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const CONFIG = {
  oauth_providers: [
    { id: 'google', type: 'standard', client_id: 'g-client', client_secret: 'g-secret' },
    { id: 'github', type: 'standard', client_id: 'gh-client', client_secret: 'gh-secret' },
  ],
};

async function setUp(server: TestServer) {
  const project = await createProject(server, CONFIG);
  const keys = await createProjectKeys(server, project.admin);
  const admin = { projectId: project.projectId, accessType: 'admin' as const, superSecretAdminKey: keys.superSecretAdminKey };
  const run = async (...args: string[]) => {
    let err = '';
    const summary = await runImportCommand(
      [...args, '--project', project.projectId, '--url', server.url, '--admin-key', keys.superSecretAdminKey],
      {},
      { out: () => {}, err: (t) => (err += t) as unknown as void, progress: () => {} },
    );
    assert.equal(summary?.failed, 0, err);
    return summary!;
  };
  const storedHash = async (email: string) =>
    (
      await server.gatehouse.core.runtime.db
        .selectFrom('users')
        .select('password_hash')
        .where('project_id', '=', project.projectId)
        .where('primary_email', '=', email)
        .executeTakeFirstOrThrow()
    ).password_hash ?? '';
  /** Signs in with the original password (and refuses a wrong one); the hash is argon2id afterwards. */
  const signsIn = async (email: string, password: string) => {
    assert.equal((await api(server, 'POST', '/auth/password/sign-in', project.client, { email, password: `${password}!` })).status, 400);
    assert.doesNotMatch(await storedHash(email), /^\$argon2id\$/, `${email}: stored as imported before the first sign-in`);
    const ok = await api(server, 'POST', '/auth/password/sign-in', project.client, { email, password });
    assert.equal(ok.status, 200, `${email}: ${ok.text}`);
    assert.match(await storedHash(email), /^\$argon2id\$/, `${email}: rehashed to argon2id`);
  };
  const user = async (email: string) => {
    const res = await api(server, 'GET', `/users?query=${encodeURIComponent(email)}`, admin);
    const found = res.body.items.find((u: { primary_email: string }) => u.primary_email === email);
    assert.ok(found, `${email} was imported`);
    return found as {
      id: string;
      display_name: string | null;
      primary_email_verified: boolean;
      oauth_providers: { id: string; account_id: string }[];
    };
  };
  return { run, signsIn, user, admin, client: project.client };
}

const NEEDS_POSTGRES = testDialects().includes('postgres')
  ? false
  : 'needs PostgreSQL (TEST_DIALECTS=…,postgres): this source is a PostgreSQL database';

/** A throwaway PostgreSQL database for a vendor's source: `body` gets a client and the URL; dropped after. */
async function withDatabase(body: (client: pg.Client, url: string) => Promise<void>): Promise<void> {
  const name = `src_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl() });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(postgresUrl());
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await client.connect();
    await body(client, url.toString());
  } finally {
    await client.end().catch(() => {});
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/**
 * The tables of Stack Auth's Prisma schema (apps/backend/prisma/schema.prisma upstream) that
 * `--from stack` reads, with the types and enums its migrations give them (Prisma quotes the
 * model and field names).
 */
const STACK_DDL = `
  create type "BooleanTrue" as enum ('TRUE');
  create type "ContactChannelType" as enum ('EMAIL');
  create table "Tenancy" ("id" uuid primary key, "createdAt" timestamp(3) not null default now(), "updatedAt" timestamp(3) not null,
    "projectId" text not null, "branchId" text not null, "organizationId" uuid, "hasNoOrganization" "BooleanTrue");
  create table "ProjectUser" ("tenancyId" uuid not null, "projectUserId" uuid not null, "mirroredProjectId" text not null,
    "mirroredBranchId" text not null, "createdAt" timestamp(3) not null default now(), "updatedAt" timestamp(3) not null,
    "displayName" text, "serverMetadata" jsonb, "clientReadOnlyMetadata" jsonb, "clientMetadata" jsonb, "profileImageUrl" text,
    "requiresTotpMfa" boolean not null default false, "totpSecret" bytea, "isAnonymous" boolean not null default false,
    "signedUpAt" timestamp(3) not null default now(), primary key ("tenancyId", "projectUserId"));
  create table "ContactChannel" ("tenancyId" uuid not null, "projectUserId" uuid not null, "id" uuid not null,
    "createdAt" timestamp(3) not null default now(), "updatedAt" timestamp(3) not null, "type" "ContactChannelType" not null,
    "isPrimary" "BooleanTrue", "usedForAuth" "BooleanTrue", "isVerified" boolean not null, "value" text not null,
    primary key ("tenancyId", "projectUserId", "id"));
  create table "AuthMethod" ("tenancyId" uuid not null, "id" uuid not null, "projectUserId" uuid not null,
    "createdAt" timestamp(3) not null default now(), "updatedAt" timestamp(3) not null, primary key ("tenancyId", "id"));
  create table "PasswordAuthMethod" ("tenancyId" uuid not null, "authMethodId" uuid not null, "projectUserId" uuid not null,
    "createdAt" timestamp(3) not null default now(), "updatedAt" timestamp(3) not null, "passwordHash" text not null,
    primary key ("tenancyId", "authMethodId"));
  create table "ProjectUserOAuthAccount" ("id" uuid not null, "tenancyId" uuid not null, "projectUserId" uuid,
    "configOAuthProviderId" text not null, "providerAccountId" text not null, "createdAt" timestamp(3) not null default now(),
    "updatedAt" timestamp(3) not null, "email" text, "allowConnectedAccounts" boolean not null default true,
    "allowSignIn" boolean not null default true, primary key ("tenancyId", "id"));
  create table "Team" ("tenancyId" uuid not null, "teamId" uuid not null, "mirroredProjectId" text not null,
    "mirroredBranchId" text not null, "createdAt" timestamp(3) not null default now(), "updatedAt" timestamp(3) not null,
    "displayName" text not null, "clientMetadata" jsonb, "clientReadOnlyMetadata" jsonb, "serverMetadata" jsonb,
    "profileImageUrl" text, primary key ("tenancyId", "teamId"));
  create table "TeamMember" ("tenancyId" uuid not null, "projectUserId" uuid not null, "teamId" uuid not null,
    "displayName" text, "profileImageUrl" text, "createdAt" timestamp(3) not null default now(), "updatedAt" timestamp(3) not null,
    "isSelected" "BooleanTrue", primary key ("tenancyId", "projectUserId", "teamId"));
  create table "TeamMemberDirectPermission" ("id" uuid primary key, "tenancyId" uuid not null, "projectUserId" uuid not null,
    "teamId" uuid not null, "permissionId" text not null, "createdAt" timestamp(3) not null default now(), "updatedAt" timestamp(3) not null);
  create table "ProjectUserDirectPermission" ("id" uuid primary key, "tenancyId" uuid not null, "projectUserId" uuid not null,
    "permissionId" text not null, "createdAt" timestamp(3) not null default now(), "updatedAt" timestamp(3) not null);`;

describeWithServer('gatehouse import from each vendor (issue 30)', (get, dialect) => {
  it('Clerk: the "Export users" CSV with bcrypt digests', async () => {
    const p = await setUp(get());
    const email = `ada-${dialect}@clerk.example.com`;
    const csv = [
      'id,first_name,last_name,username,primary_email_address,primary_phone_number,verified_email_addresses,unverified_email_addresses,verified_phone_numbers,unverified_phone_numbers,totp_secret,password_digest,password_hasher',
      `user_2abc,Ada,"Lovelace, Countess",,${email},,${email},,,,,${bcrypt.hashSync('clerk pass 1', 10)},bcrypt`,
      `user_2def,Bob,,,bob-${dialect}@clerk.example.com,,,bob-${dialect}@clerk.example.com,,,,,`,
    ].join('\n');
    const file = join(dir, `clerk-${dialect}.csv`);
    writeFileSync(file, `${csv}\n`);
    assert.equal((await p.run('--from', 'clerk', file)).created, 2);
    await p.signsIn(email, 'clerk pass 1');
    const ada = await p.user(email);
    assert.equal(ada.display_name, 'Ada Lovelace, Countess');
    assert.equal(ada.primary_email_verified, true);
    assert.equal((await p.user(`bob-${dialect}@clerk.example.com`)).primary_email_verified, false);
  });

  it('Auth0: the bulk user export merged with the password hash export', async () => {
    const p = await setUp(get());
    const oid = randomBytes(12).toString('hex');
    const email = `cy-${dialect}@auth0.example.com`;
    const users = join(dir, `auth0-users-${dialect}.ndjson`);
    const hashes = join(dir, `auth0-passwords-${dialect}.ndjson`);
    writeFileSync(
      users,
      [
        {
          user_id: `auth0|${oid}`,
          email,
          email_verified: true,
          name: 'Cy',
          created_at: '2024-02-03T04:05:06.000Z',
          user_metadata: { theme: 'dark' },
        },
        {
          user_id: 'google-oauth2|1122',
          email: `dee-${dialect}@auth0.example.com`,
          email_verified: true,
          identities: [{ provider: 'google-oauth2', user_id: '1122', isSocial: true }],
        },
      ]
        .map((u) => JSON.stringify(u))
        .join('\n'),
    );
    writeFileSync(hashes, `${JSON.stringify({ _id: { $oid: oid }, email, passwordHash: bcrypt.hashSync('auth0 pass 1', 10) })}\n`);
    assert.equal((await p.run('--from', 'auth0', users, '--auth0-passwords', hashes)).created, 2);
    await p.signsIn(email, 'auth0 pass 1');
    const dee = await p.user(`dee-${dialect}@auth0.example.com`);
    assert.deepEqual(
      dee.oauth_providers.map((o) => [o.id, o.account_id]),
      [['google', '1122']],
    );
  });

  it('Better Auth: a database written by Better Auth itself (scrypt passwords, social accounts)', async () => {
    const p = await setUp(get());
    const file = join(dir, `better-auth-${dialect}.db`);
    const database = new BetterSqlite3(file);
    const { betterAuth } = await import('better-auth');
    const { getMigrations } = await import('better-auth/db/migration');
    const auth = betterAuth({
      database,
      emailAndPassword: { enabled: true },
      secret: randomBytes(32).toString('hex'),
      baseURL: 'http://localhost:3000',
      logger: { disabled: true },
    });
    await (await getMigrations(auth.options)).runMigrations();
    const email = `eve-${dialect}@better-auth.example.com`;
    const created = await auth.api.signUpEmail({ body: { email, password: 'better auth pässword', name: 'Eve' } });
    database
      .prepare(`insert into "account" ("id", "accountId", "providerId", "userId", "createdAt", "updatedAt") values (?, ?, ?, ?, ?, ?)`)
      .run('acc-gh', '777', 'github', created.user.id, new Date().toISOString(), new Date().toISOString());
    database.close();
    assert.equal((await p.run('--from', 'better-auth', file)).created, 1);
    await p.signsIn(email, 'better auth pässword');
    const eve = await p.user(email);
    assert.equal(eve.display_name, 'Eve');
    assert.deepEqual(
      eve.oauth_providers.map((o) => [o.id, o.account_id]),
      [['github', '777']],
    );
  });

  it('Supabase: auth.users with bcrypt passwords and auth.identities, without deleted users', {
    skip: testDialects().includes('postgres')
      ? false
      : 'needs PostgreSQL (TEST_DIALECTS=…,postgres): a Supabase source is a PostgreSQL database',
  }, async () => {
    const p = await setUp(get());
    const name = `supa_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl() });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(postgresUrl());
    url.pathname = `/${name}`;
    const supa = new pg.Client({ connectionString: url.toString() });
    try {
      await supa.connect();
      await supa.query(`create schema auth;
          create table auth.users (instance_id uuid, id uuid primary key, aud varchar(255), role varchar(255), email varchar(255),
            encrypted_password varchar(255), email_confirmed_at timestamptz, raw_app_meta_data jsonb, raw_user_meta_data jsonb,
            created_at timestamptz, updated_at timestamptz, deleted_at timestamptz, is_anonymous boolean not null default false);
          create table auth.identities (provider_id text not null, user_id uuid not null references auth.users(id), identity_data jsonb not null,
            provider text not null, created_at timestamptz, id uuid primary key default gen_random_uuid());`);
      const ids = [0, 1, 2].map(() => crypto.randomUUID());
      const email = (i: number) => `supa${i}-${dialect}@supabase.example.com`;
      const insert = `insert into auth.users (id, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, deleted_at)
          values ($1, $2, $3, $4, $5, $6, now(), $7)`;
      await supa.query(insert, [
        ids[0],
        email(0),
        bcrypt.hashSync('supabase pass 0', 10),
        new Date(),
        { provider: 'email' },
        { full_name: 'Supa Zero' },
        null,
      ]);
      await supa.query(insert, [ids[1], email(1), null, new Date(), { provider: 'google' }, { name: 'Supa One' }, null]);
      await supa.query(insert, [ids[2], email(2), bcrypt.hashSync('x', 4), null, {}, {}, new Date()]);
      await supa.query(`insert into auth.identities (provider_id, user_id, identity_data, provider) values ($1, $2, $3, 'google')`, [
        'g-555',
        ids[1],
        { sub: 'g-555', email: email(1) },
      ]);
      await supa.query(`insert into auth.identities (provider_id, user_id, identity_data, provider) values ($1, $2, '{}', 'email')`, [
        ids[0],
        ids[0],
      ]);
      assert.equal((await p.run('--from', 'supabase', url.toString())).created, 2, 'the deleted user is left out');
      await p.signsIn(email(0), 'supabase pass 0');
      const zero = await p.user(email(0));
      assert.equal(zero.id, ids[0], 'Supabase ids are UUIDs and are kept');
      assert.equal(zero.display_name, 'Supa Zero');
      const one = await p.user(email(1));
      assert.deepEqual(
        one.oauth_providers.map((o) => [o.id, o.account_id]),
        [['google', 'g-555']],
      );
    } finally {
      await supa.end().catch(() => {});
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });

  it('Stack Auth: one project of a Stack database, as Stack writes its rows', { skip: NEEDS_POSTGRES }, async () => {
    const p = await setUp(get());
    await withDatabase(async (db, url) => {
      await db.query(STACK_DDL);
      const [tenancy, other, alice, bob, anon, team] = [0, 1, 2, 3, 4, 5].map(() => crypto.randomUUID());
      const now = new Date('2025-05-06T07:08:09.000Z');
      await db.query(
        `insert into "Tenancy" ("id", "updatedAt", "projectId", "branchId", "hasNoOrganization") values ($1, now(), 'stack-proj', 'main', 'TRUE'), ($2, now(), 'other-proj', 'main', 'TRUE')`,
        [tenancy, other],
      );
      const email = `alice-${dialect}@stack.example.com`;
      const user = `insert into "ProjectUser" ("tenancyId", "projectUserId", "mirroredProjectId", "mirroredBranchId", "updatedAt", "displayName", "serverMetadata", "clientMetadata", "totpSecret", "requiresTotpMfa", "isAnonymous", "signedUpAt")
        values ($1, $2, 'stack-proj', 'main', now(), $3, $4, $5, $6, $7, $8, $9)`;
      const totp = Buffer.from('12345678901234567890');
      // Alice set up TOTP once and turned it off (Stack keeps the secret): she signs in with her password alone.
      await db.query(user, [tenancy, alice, 'Alice', { plan: 'pro' }, { theme: 'dark' }, totp, false, false, now]);
      await db.query(user, [tenancy, bob, 'Bob', null, null, totp, true, false, now]);
      await db.query(user, [tenancy, anon, null, null, null, null, false, true, now]);
      await db.query(user, [other, crypto.randomUUID(), 'Elsewhere', null, null, null, false, false, now]);
      await db.query(
        `insert into "ContactChannel" ("tenancyId", "projectUserId", "id", "updatedAt", "type", "isPrimary", "usedForAuth", "isVerified", "value")
         values ($1, $2, $3, now(), 'EMAIL', 'TRUE', 'TRUE', true, $4)`,
        [tenancy, alice, crypto.randomUUID(), email],
      );
      const bobEmail = `bob-${dialect}@stack.example.com`;
      await db.query(
        `insert into "ContactChannel" ("tenancyId", "projectUserId", "id", "updatedAt", "type", "isPrimary", "usedForAuth", "isVerified", "value")
         values ($1, $2, $3, now(), 'EMAIL', 'TRUE', 'TRUE', false, $4)`,
        [tenancy, bob, crypto.randomUUID(), bobEmail],
      );
      const bobMethod = crypto.randomUUID();
      await db.query(`insert into "AuthMethod" ("tenancyId", "id", "projectUserId", "updatedAt") values ($1, $2, $3, now())`, [
        tenancy,
        bobMethod,
        bob,
      ]);
      await db.query(
        `insert into "PasswordAuthMethod" ("tenancyId", "authMethodId", "projectUserId", "updatedAt", "passwordHash") values ($1, $2, $3, now(), $4)`,
        [tenancy, bobMethod, bob, bcrypt.hashSync('stack pass 2', 10)],
      );
      const method = crypto.randomUUID();
      await db.query(`insert into "AuthMethod" ("tenancyId", "id", "projectUserId", "updatedAt") values ($1, $2, $3, now())`, [
        tenancy,
        method,
        alice,
      ]);
      await db.query(
        `insert into "PasswordAuthMethod" ("tenancyId", "authMethodId", "projectUserId", "updatedAt", "passwordHash") values ($1, $2, $3, now(), $4)`,
        [tenancy, method, alice, bcrypt.hashSync('stack pass 1', 10)],
      );
      await db.query(
        `insert into "ProjectUserOAuthAccount" ("id", "tenancyId", "projectUserId", "configOAuthProviderId", "providerAccountId", "updatedAt", "email")
         values ($1, $2, $3, 'github', 'gh-9001', now(), $4)`,
        [crypto.randomUUID(), tenancy, alice, email],
      );
      await db.query(
        `insert into "Team" ("tenancyId", "teamId", "mirroredProjectId", "mirroredBranchId", "updatedAt", "displayName", "serverMetadata") values ($1, $2, 'stack-proj', 'main', now(), 'Stack team', $3)`,
        [tenancy, team, { seats: 5 }],
      );
      await db.query(
        `insert into "TeamMember" ("tenancyId", "projectUserId", "teamId", "updatedAt", "isSelected") values ($1, $2, $3, now(), 'TRUE')`,
        [tenancy, alice, team],
      );
      await db.query(
        `insert into "TeamMemberDirectPermission" ("id", "tenancyId", "projectUserId", "teamId", "permissionId", "updatedAt") values ($1, $2, $3, $4, 'team_admin', now())`,
        [crypto.randomUUID(), tenancy, alice, team],
      );
      await assert.rejects(p.run('--from', 'stack', url), /--stack-project/);
      const summary = await p.run('--from', 'stack', url, '--stack-project', 'stack-proj');
      assert.equal(summary.created, 3, 'one team and two users: the anonymous user and the other project are left out');
      await p.signsIn(email, 'stack pass 1');
      const imported = await p.user(email);
      assert.equal(imported.id, alice, 'Stack ids are kept');
      assert.equal(imported.display_name, 'Alice');
      assert.deepEqual(
        imported.oauth_providers.map((o) => [o.id, o.account_id]),
        [['github', 'gh-9001']],
      );
      // Bob requires TOTP in Stack: his secret comes along and his password sign-in asks for the second factor.
      const bobSignIn = await api(get(), 'POST', '/auth/password/sign-in', p.client, { email: bobEmail, password: 'stack pass 2' });
      assert.equal(bobSignIn.body.code, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', bobSignIn.text);
      assert.equal((await p.user(bobEmail)).primary_email_verified, false);
      const grants = await api(get(), 'GET', `/team-permissions?team_id=${team}&user_id=${alice}&recursive=false`, p.admin);
      assert.deepEqual(
        grants.body.items.map((g: { id: string }) => g.id),
        ['team_admin'],
      );
    });
  });
});
