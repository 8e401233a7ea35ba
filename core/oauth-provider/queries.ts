import type { Kysely, OnConflictBuilder } from 'kysely';
import { precompiled } from '../storage/precompiled.ts';
import type { Database, OAuthProviderClientsTable, OAuthProviderPayloadsTable } from '../storage/tables.ts';
import type { UserRow } from '../users/index.ts';
import { forgetCachedClients } from './client-cache.ts';

/** An OAuth client row of a project's identity provider. */
export type OAuthClientRow = OAuthProviderClientsTable;

/** The client `clientId` of project `projectId`, or null. */
export async function findClientRow(db: Kysely<Database>, projectId: string, clientId: string): Promise<OAuthClientRow | null> {
  return (
    (await db
      .selectFrom('oauth_provider_clients')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('client_id', '=', clientId)
      .executeTakeFirst()) ?? null
  );
}

/** The project's clients, oldest first (at most `limit`). */
export async function listClientRows(db: Kysely<Database>, projectId: string, limit: number): Promise<OAuthClientRow[]> {
  return db
    .selectFrom('oauth_provider_clients')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'asc')
    .orderBy('client_id', 'asc')
    .limit(limit)
    .execute();
}

/** Stores a client, replacing its metadata and secret when `client_id` exists in the same project. */
export async function upsertClientRow(db: Kysely<Database>, row: OAuthClientRow): Promise<void> {
  forgetCachedClients();
  await db
    .insertInto('oauth_provider_clients')
    .values(row)
    .onConflict((oc) =>
      oc.column('client_id').doUpdateSet({
        metadata: row.metadata,
        client_secret_sealed: row.client_secret_sealed,
        updated_at: row.updated_at,
      }),
    )
    .execute();
  forgetCachedClients();
}

/** Removes a client and everything the provider stored for it; true when it existed. */
export async function deleteClientRow(db: Kysely<Database>, projectId: string, clientId: string): Promise<boolean> {
  forgetCachedClients();
  const result = await db
    .deleteFrom('oauth_provider_clients')
    .where('project_id', '=', projectId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  forgetCachedClients();
  return Number(result.numDeletedRows) > 0;
}

/** One stored `oidc-provider` model instance. */
export type PayloadRow = OAuthProviderPayloadsTable;

/** The columns of `oauth_provider_payloads`, in the order the upserts bind them. */
const PAYLOAD_COLUMNS = [
  'project_id',
  'model',
  'id_hash',
  'payload',
  'grant_id',
  'user_code_hash',
  'uid',
  'account_id',
  'expires_at',
  'consumed_at',
] as const satisfies ReadonlyArray<keyof PayloadRow>;

/** A payload row as a precompiled query's arguments. */
type PayloadArgs = { [K in keyof PayloadRow]: PayloadRow[K] };

/** The columns a payload is looked up by. */
type PayloadKey = 'id_hash' | 'uid' | 'user_code_hash';

/** Rows given as prefixed precompiled arguments (`a_payload`, `b_payload`, …): the values of a multi-row insert. */
function prefixedRows(a: Record<string, PayloadRow[keyof PayloadRow]>, count: number): PayloadRow[] {
  return ['a', 'b']
    .slice(0, count)
    .map((prefix) => Object.fromEntries(PAYLOAD_COLUMNS.map((c) => [c, a[`${prefix}_${c}`]])) as unknown as PayloadRow);
}

/** `rows` as the prefixed arguments {@link prefixedRows} reads. */
function prefixedArgs(rows: readonly PayloadRow[]): Record<string, PayloadRow[keyof PayloadRow]> {
  const args: Record<string, PayloadRow[keyof PayloadRow]> = {};
  rows.forEach((row, i) => {
    for (const column of PAYLOAD_COLUMNS) args[`${i === 0 ? 'a' : 'b'}_${column}`] = row[column];
  });
  return args;
}

/** On a key conflict, every other column is replaced by the row the upsert tried to insert. */
function replaceOnKeyConflict(oc: OnConflictBuilder<Database, 'oauth_provider_payloads'>) {
  return oc.columns(['project_id', 'model', 'id_hash']).doUpdateSet((eb) => ({
    payload: eb.ref('excluded.payload'),
    grant_id: eb.ref('excluded.grant_id'),
    user_code_hash: eb.ref('excluded.user_code_hash'),
    uid: eb.ref('excluded.uid'),
    account_id: eb.ref('excluded.account_id'),
    expires_at: eb.ref('excluded.expires_at'),
    consumed_at: eb.ref('excluded.consumed_at'),
  }));
}

// Precompiled (core/storage/precompiled.ts): every token grant runs several of these.
const upsertPayload = precompiled((db, a: PayloadArgs) =>
  db
    .insertInto('oauth_provider_payloads')
    .values(Object.fromEntries(PAYLOAD_COLUMNS.map((c) => [c, a[c]])) as unknown as PayloadRow)
    .onConflict(replaceOnKeyConflict),
);

const upsertTwoPayloads = precompiled((db, a: Record<string, PayloadRow[keyof PayloadRow]>) =>
  db
    .insertInto('oauth_provider_payloads')
    .values(['a', 'b'].map((prefix) => Object.fromEntries(PAYLOAD_COLUMNS.map((c) => [c, a[`${prefix}_${c}`]])) as unknown as PayloadRow))
    .onConflict(replaceOnKeyConflict),
);

type PayloadLookup = { projectId: string; model: string; value: string };

function payloadLookups(column: PayloadKey) {
  const base = (db: Kysely<Database>, a: PayloadLookup) =>
    db
      .selectFrom('oauth_provider_payloads')
      .selectAll()
      .where('project_id', '=', a.projectId)
      .where('model', '=', a.model)
      .where(column, '=', a.value);
  return {
    unexpired: precompiled((db, a: PayloadLookup & { now: number }) =>
      base(db, a).where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', a.now)])),
    ),
    any: precompiled(base),
  };
}

const payloadBy = { id_hash: payloadLookups('id_hash'), uid: payloadLookups('uid'), user_code_hash: payloadLookups('user_code_hash') };

type ConsumeArgs = { projectId: string; model: string; idHash: string; now: number };

const consumePayload = precompiled((db, a: ConsumeArgs) =>
  db
    .updateTable('oauth_provider_payloads')
    .set({ consumed_at: a.now })
    .where('project_id', '=', a.projectId)
    .where('model', '=', a.model)
    .where('id_hash', '=', a.idHash),
);

const consumeUnconsumed = precompiled((db, a: ConsumeArgs) =>
  db
    .updateTable('oauth_provider_payloads')
    .set({ consumed_at: a.now })
    .where('project_id', '=', a.projectId)
    .where('model', '=', a.model)
    .where('id_hash', '=', a.idHash)
    .where('consumed_at', 'is', null)
    .returning('id_hash'),
);

/** Stores (or replaces) a model instance. */
export async function upsertPayloadRow(db: Kysely<Database>, row: PayloadRow): Promise<void> {
  const args: PayloadArgs = row;
  await upsertPayload.execute(db, args);
}

/** Stores (or replaces) two model instances in one statement (a grant's new access and refresh tokens). */
export async function upsertPayloadRows(db: Kysely<Database>, first: PayloadRow, second: PayloadRow): Promise<void> {
  await upsertTwoPayloads.execute(db, prefixedArgs([first, second]));
}

/** The unexpired instance of `model` matching `where`, or null; `now` null finds an expired one too (until swept). */
export async function findPayloadRow(
  db: Kysely<Database>,
  projectId: string,
  model: string,
  where: { column: PayloadKey; value: string },
  now: number | null,
): Promise<PayloadRow | null> {
  const lookups = payloadBy[where.column];
  const args = { projectId, model, value: where.value };
  return (await (now === null ? lookups.any.executeTakeFirst(db, args) : lookups.unexpired.executeTakeFirst(db, { ...args, now }))) ?? null;
}

/** Marks an instance consumed at `now` (authorization codes, rotated refresh tokens, device codes). */
export async function consumePayloadRow(
  db: Kysely<Database>,
  projectId: string,
  model: string,
  idHash: string,
  now: number,
): Promise<void> {
  await consumePayload.execute(db, { projectId, model, idHash, now });
}

/**
 * Marks an instance consumed at `now` unless it already was (or is gone): true when this call
 * consumed it. A rotated refresh token consumed by a concurrent request, or removed with its
 * grant meanwhile, answers false.
 */
export async function consumeUnconsumedPayloadRow(
  db: Kysely<Database>,
  projectId: string,
  model: string,
  idHash: string,
  now: number,
): Promise<boolean> {
  return (await consumeUnconsumed.execute(db, { projectId, model, idHash, now })).length > 0;
}

/** Removes one instance. */
export async function deletePayloadRow(db: Kysely<Database>, projectId: string, model: string, idHash: string): Promise<void> {
  await db
    .deleteFrom('oauth_provider_payloads')
    .where('project_id', '=', projectId)
    .where('model', '=', model)
    .where('id_hash', '=', idHash)
    .execute();
}

/**
 * Removes every instance of a grant (revocation, refresh-token reuse) but the grant itself (model
 * `grantModel`, whose row names its own id in `grant_id`): the grant is destroyed on its own, and
 * that reads it first for `oauth_grant.revoked`.
 */
export async function deleteGrantRows(db: Kysely<Database>, projectId: string, grantId: string, grantModel: string): Promise<void> {
  await db
    .deleteFrom('oauth_provider_payloads')
    .where('project_id', '=', projectId)
    .where('grant_id', '=', grantId)
    .where('model', '!=', grantModel)
    .execute();
}

/** Removes instances expired before `now`; the number removed. */
export async function deleteExpiredPayloadRows(db: Kysely<Database>, now: number): Promise<number> {
  const result = await db.deleteFrom('oauth_provider_payloads').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The unexpired instances of `model` stored for user `accountId` of the project (their grants), oldest first. */
export async function listAccountPayloadRows(
  db: Kysely<Database>,
  projectId: string,
  model: string,
  accountId: string,
  now: number,
): Promise<PayloadRow[]> {
  return db
    .selectFrom('oauth_provider_payloads')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('model', '=', model)
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('id_hash')
    .limit(1000)
    .execute();
}

const userWithPayload = precompiled(
  (db, a: { linkProjectId: string; linkModel: string; linkIdHash: string; now: number; projectId: string; userId: string }) =>
    db
      .selectFrom('users')
      .leftJoin('oauth_provider_payloads as link', (join) =>
        join
          .on('link.project_id', '=', a.linkProjectId)
          .on('link.model', '=', a.linkModel)
          .on('link.id_hash', '=', a.linkIdHash)
          .on((eb) => eb.or([eb('link.expires_at', 'is', null), eb('link.expires_at', '>', a.now)])),
      )
      // A link written since the session id is also in its `uid` column: the session comes with it.
      .leftJoin('refresh_tokens as session', (join) =>
        join.onRef('session.project_id', '=', 'link.project_id').onRef('session.id', '=', 'link.uid'),
      )
      .selectAll('users')
      .select([
        'link.payload as link_payload',
        'link.uid as link_session_id',
        'session.id as session_id',
        'session.expires_at as session_expires_at',
      ])
      .where('users.project_id', '=', a.projectId)
      .where('users.id', '=', a.userId),
);

/**
 * User `userId` of the project with, in the same query, the payload of the unexpired instance
 * `idHash` of `model` (a grant's Gatehouse session link), or null when the user does not exist;
 * `linkPayload` is null when there is no such instance. When the link names its Gatehouse session
 * in its `uid` column (`linkSessionId`), that session (`refresh_tokens`) comes in the same query:
 * `session` is null when it is gone (signed out), else its expiry (epoch ms, null for none).
 * Precompiled: every refresh grant runs it.
 */
export async function findUserWithPayload(
  db: Kysely<Database>,
  projectId: string,
  userId: string,
  link: { model: string; idHash: string; now: number },
): Promise<{
  user: UserRow;
  linkPayload: string | null;
  linkSessionId: string | null;
  session: { expiresAt: number | null } | null;
} | null> {
  const row = await userWithPayload.executeTakeFirst(db, {
    linkProjectId: projectId,
    linkModel: link.model,
    linkIdHash: link.idHash,
    now: link.now,
    projectId,
    userId,
  });
  if (!row) return null;
  const { link_payload, link_session_id, session_id, session_expires_at, ...user } = row;
  return {
    user,
    linkPayload: link_payload,
    linkSessionId: link_session_id,
    session: session_id === null ? null : { expiresAt: session_expires_at === null ? null : Number(session_expires_at) },
  };
}

/** The arguments of {@link consumeAndUpsertPayloadRowsPg}'s statement: the consumption, then each row's columns prefixed `a_` / `b_`. */
type ConsumeAndUpsertArgs = ConsumeArgs & Record<string, PayloadRow[keyof PayloadRow]>;

function consumeAndUpsert(count: 1 | 2) {
  return precompiled((db, a: ConsumeAndUpsertArgs) =>
    db
      .with('consumed', (qc) =>
        qc
          .updateTable('oauth_provider_payloads')
          .set({ consumed_at: a.now })
          .where('project_id', '=', a.projectId)
          .where('model', '=', a.model)
          .where('id_hash', '=', a.idHash)
          .where('consumed_at', 'is', null)
          .returning('id_hash'),
      )
      .insertInto('oauth_provider_payloads')
      .values(prefixedRows(a, count))
      .onConflict(replaceOnKeyConflict)
      .returning((eb) => eb.selectFrom('consumed').select(eb.fn.countAll().as('n')).as('consumed')),
  );
}

const consumeAndUpsertOne = consumeAndUpsert(1);
const consumeAndUpsertTwo = consumeAndUpsert(2);

/**
 * PostgreSQL only (a data-modifying `with`): marks instance `consume.idHash` consumed unless it
 * already was, and stores one or two rows, in one statement (one round trip instead of two);
 * true when this call consumed it. The rows are stored either way: a caller told false must
 * remove them (the refused rotation revokes their whole grant).
 */
export async function consumeAndUpsertPayloadRowsPg(
  db: Kysely<Database>,
  consume: { projectId: string; model: string; idHash: string; now: number },
  rows: readonly [PayloadRow] | readonly [PayloadRow, PayloadRow],
): Promise<boolean> {
  const args: ConsumeAndUpsertArgs = { ...consume, ...prefixedArgs(rows) };
  const result = await (rows.length === 2 ? consumeAndUpsertTwo : consumeAndUpsertOne).execute(db, args);
  return result.some((r) => Number(r.consumed) > 0);
}

/** Models {@link findRefreshContext} joins, as precompiled arguments. */
type RefreshContextArgs = {
  projectId: string;
  tokenModel: string;
  idHash: string;
  now: number;
  grantModel: string;
  grantNow: number;
  linkModel: string;
  linkNow: number;
};

const refreshContext = precompiled((db, a: RefreshContextArgs) =>
  db
    .selectFrom('oauth_provider_payloads as token')
    .leftJoin('oauth_provider_payloads as grant', (join) =>
      join
        .onRef('grant.project_id', '=', 'token.project_id')
        .onRef('grant.grant_id', '=', 'token.grant_id')
        .on('grant.model', '=', a.grantModel)
        .on((eb) => eb.or([eb('grant.expires_at', 'is', null), eb('grant.expires_at', '>', a.grantNow)])),
    )
    .leftJoin('oauth_provider_payloads as link', (join) =>
      join
        .onRef('link.project_id', '=', 'token.project_id')
        .onRef('link.grant_id', '=', 'token.grant_id')
        .on('link.model', '=', a.linkModel)
        .on((eb) => eb.or([eb('link.expires_at', 'is', null), eb('link.expires_at', '>', a.linkNow)])),
    )
    .leftJoin('refresh_tokens as session', (join) =>
      join.onRef('session.project_id', '=', 'link.project_id').onRef('session.id', '=', 'link.uid'),
    )
    .leftJoin('users', (join) => join.onRef('users.project_id', '=', 'token.project_id').onRef('users.id', '=', 'token.account_id'))
    .selectAll('users')
    .select([
      'token.payload as token_payload',
      'token.grant_id as token_grant_id',
      'token.account_id as token_account_id',
      'token.expires_at as token_expires_at',
      'token.consumed_at as token_consumed_at',
      'grant.id_hash as grant_id_hash',
      'grant.payload as grant_payload',
      'grant.expires_at as grant_expires_at',
      'grant.consumed_at as grant_consumed_at',
      'link.payload as link_payload',
      'link.uid as link_session_id',
      'session.id as session_id',
      'session.expires_at as session_expires_at',
    ])
    .where('token.project_id', '=', a.projectId)
    .where('token.model', '=', a.tokenModel)
    .where('token.id_hash', '=', a.idHash)
    .where((eb) => eb.or([eb('token.expires_at', 'is', null), eb('token.expires_at', '>', a.now)])),
);

/** What {@link findRefreshContext} reads for one refresh token. */
export interface RefreshContext {
  token: Pick<PayloadRow, 'payload' | 'grant_id' | 'account_id' | 'expires_at' | 'consumed_at'>;
  /** The token's grant (a `Grant` row naming its id in `grant_id`), or null when not found that way. */
  grant: Pick<PayloadRow, 'id_hash' | 'payload' | 'expires_at' | 'consumed_at'> | null;
  /** The token's user, with its grant's session link and linked session as {@link findUserWithPayload} gives them; null when the user does not exist. */
  account: Awaited<ReturnType<typeof findUserWithPayload>>;
}

/**
 * The unexpired refresh token `idHash` (model `models.token`) of the project, in one query with
 * what a refresh grant reads next: its unexpired grant (model `models.grant`, found by its
 * `grant_id` column), its user (`account_id`) and the grant's unexpired session link
 * (`models.link`, by `grant_id`) with the Gatehouse session the link names in its `uid` column.
 * Null when the token is not found. `now` is epoch ms. Precompiled: every refresh grant runs it.
 */
export async function findRefreshContext(
  db: Kysely<Database>,
  projectId: string,
  idHash: string,
  now: number,
  models: { token: string; grant: string; link: string },
): Promise<RefreshContext | null> {
  const row = await refreshContext.executeTakeFirst(db, {
    projectId,
    tokenModel: models.token,
    idHash,
    now,
    grantModel: models.grant,
    grantNow: now,
    linkModel: models.link,
    linkNow: now,
  });
  if (!row) return null;
  const {
    token_payload,
    token_grant_id,
    token_account_id,
    token_expires_at,
    token_consumed_at,
    grant_id_hash,
    grant_payload,
    grant_expires_at,
    grant_consumed_at,
    link_payload,
    link_session_id,
    session_id,
    session_expires_at,
    ...user
  } = row;
  return {
    token: {
      payload: token_payload,
      grant_id: token_grant_id,
      account_id: token_account_id,
      expires_at: token_expires_at,
      consumed_at: token_consumed_at,
    },
    grant:
      grant_id_hash === null || grant_payload === null
        ? null
        : { id_hash: grant_id_hash, payload: grant_payload, expires_at: grant_expires_at, consumed_at: grant_consumed_at },
    account:
      user.id === null
        ? null
        : {
            user: user as UserRow,
            linkPayload: link_payload,
            linkSessionId: link_session_id,
            session: session_id === null ? null : { expiresAt: session_expires_at === null ? null : Number(session_expires_at) },
          },
  };
}
