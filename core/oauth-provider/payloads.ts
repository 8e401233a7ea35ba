import type { Runtime } from '../runtime.ts';
import {
  consumePayloadRow,
  deleteClientRow,
  deleteExpiredPayloadRows,
  deleteGrantRows,
  deletePayloadRow,
  findClientRow,
  findPayloadRow,
  findRefreshContext,
  upsertPayloadRow,
  upsertClientRow,
  type PayloadRow,
} from './queries.ts';
import { currentWriteBatch } from './write-batch.ts';
import { clientForProvider, sealedClientRow } from './client-record.ts';
import { cachedClient } from './client-cache.ts';
import { payloadHash } from './payload-hash.ts';
import { GRANT_MODEL, grantFromRow, inSystemTransaction, revokeStoredGrant } from './grants.ts';
import { SESSION_LINK_MODEL } from './account.ts';

/** What `oidc-provider` stores for one model instance (its `AdapterPayload`). */
export type OidcPayload = Record<string, unknown> & {
  grantId?: string;
  userCode?: string;
  uid?: string;
  accountId?: string;
  consumed?: unknown;
};

/**
 * The storage `oidc-provider` asks for (its Adapter interface,
 * https://github.com/panva/node-oidc-provider/blob/v9.x/example/my_adapter.js), for one model of
 * one project: every instance lives in `oauth_provider_payloads` under the SHA-256 of its id, so
 * the opaque access tokens, refresh tokens and codes (whose ids are the token values) are stored
 * hashed; clients live in `oauth_provider_clients` with their secret sealed.
 */
export interface OidcModelStore {
  upsert(id: string, payload: OidcPayload, expiresIn?: number): Promise<void>;
  find(id: string): Promise<OidcPayload | undefined>;
  findByUserCode(userCode: string): Promise<OidcPayload | undefined>;
  findByUid(uid: string): Promise<OidcPayload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

/** Every this many payload writes, a process removes the expired payloads of every project (a bounded table without a sweeper). */
const SWEEP_EVERY_WRITES = 500;
let writesSinceSweep = 0;

/**
 * The store of model `model` (`Session`, `AccessToken`, `Client`, …) of project `projectId`.
 * Times come from the runtime's clock (epoch ms); `expiresIn` is in seconds, as oidc-provider
 * passes it. A stored payload that no longer parses reads as absent.
 */
export function oidcModelStore(runtime: Runtime, projectId: string, model: string): OidcModelStore {
  const db = runtime.db;
  const now = () => runtime.clock.now();
  const parse = (row: { payload: string; consumed_at: number | null; expires_at: number | null } | null): OidcPayload | undefined => {
    if (!row) return undefined;
    let payload: OidcPayload;
    try {
      payload = JSON.parse(row.payload) as OidcPayload;
    } catch {
      return undefined;
    }
    // A device code past its expiry (by the runtime's clock) is still found, marked expired, so the
    // provider answers RFC 8628's `expired_token` rather than `invalid_grant`.
    if (row.expires_at !== null && Number(row.expires_at) <= now()) payload = { ...payload, exp: 1 };
    return row.consumed_at === null ? payload : { ...payload, consumed: Math.floor(Number(row.consumed_at) / 1000) };
  };
  // Only device codes are read past their expiry (see parse); everything else expires in the query.
  const validAt = () => (model === 'DeviceCode' ? null : now());
  if (model === 'Client') {
    return {
      async upsert(id, payload) {
        // Only dynamic registration (RFC 7591) writes clients through the provider.
        const existing = await findClientRow(db, projectId, id);
        await upsertClientRow(
          db,
          sealedClientRow(runtime, projectId, payload, {
            registeredBy: existing?.registered_by ?? 'dynamic',
            createdAt: existing ? Number(existing.created_at) : now(),
            now: now(),
          }),
        );
      },
      // Cached for a second (client-cache.ts): every grant authenticates its client.
      async find(id) {
        if (id.length > 200) return undefined;
        const client = await cachedClient(projectId, id, async () => {
          const row = await findClientRow(db, projectId, id);
          return row ? clientForProvider(runtime, row) : null;
        });
        return client ?? undefined;
      },
      findByUserCode: async () => undefined,
      findByUid: async () => undefined,
      consume: async () => {},
      async destroy(id) {
        await deleteClientRow(db, projectId, id);
      },
      revokeByGrantId: async () => {},
    };
  }
  // A token request's writes may be held back and written together (write-batch.ts); every other
  // storage call of the request writes what is held first, so effects keep the provider's order.
  const settle = async () => {
    const batch = currentWriteBatch();
    if (batch?.pending) await batch.flush();
  };
  /** Before a write that is not held back: what the request read ahead may be stale after it. */
  const beforeWrite = async () => {
    currentWriteBatch()?.forgetPrefetched();
    await settle();
  };
  return {
    async upsert(id, payload, expiresIn) {
      const row: PayloadRow = {
        project_id: projectId,
        model,
        id_hash: payloadHash(id),
        payload: JSON.stringify(payload),
        // A grant names itself, so a refresh token's lookup finds its grant in the same query (queries.ts findRefreshContext).
        grant_id: model === GRANT_MODEL ? id : typeof payload.grantId === 'string' ? payload.grantId : null,
        user_code_hash: typeof payload.userCode === 'string' ? payloadHash(payload.userCode) : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        account_id: typeof payload.accountId === 'string' ? payload.accountId : null,
        expires_at: expiresIn ? now() + expiresIn * 1000 : null,
        consumed_at: null,
      };
      if (!currentWriteBatch()?.holdUpsert(row)) {
        await beforeWrite();
        await upsertPayloadRow(db, row);
      }
      if (++writesSinceSweep >= SWEEP_EVERY_WRITES) {
        writesSinceSweep = 0;
        await deleteExpiredPayloadRows(db, now());
      }
    },
    async find(id) {
      await settle();
      const idHash = payloadHash(id);
      const batch = currentWriteBatch();
      if (batch && model === 'RefreshToken') {
        // A refresh grant reads the token, then its grant, then its user and session: one query for all (queries.ts findRefreshContext).
        const context = await findRefreshContext(db, projectId, idHash, now(), {
          token: model,
          grant: GRANT_MODEL,
          link: SESSION_LINK_MODEL,
        });
        if (!context) return undefined;
        batch.rememberRefreshContext(projectId, context);
        return parse(context.token);
      }
      const prefetched = batch && model === GRANT_MODEL ? batch.takePrefetchedGrant(projectId, idHash) : undefined;
      return parse(prefetched ?? (await findPayloadRow(db, projectId, model, { column: 'id_hash', value: idHash }, validAt())));
    },
    async findByUid(uid) {
      await settle();
      return parse(await findPayloadRow(db, projectId, model, { column: 'uid', value: uid }, validAt()));
    },
    async findByUserCode(userCode) {
      await settle();
      return parse(await findPayloadRow(db, projectId, model, { column: 'user_code_hash', value: payloadHash(userCode) }, validAt()));
    },
    async consume(id) {
      const idHash = payloadHash(id);
      if (currentWriteBatch()?.holdConsume(projectId, model, idHash, now())) return;
      await beforeWrite();
      await consumePayloadRow(db, projectId, model, idHash, now());
    },
    async destroy(id) {
      await beforeWrite();
      const row =
        model === GRANT_MODEL ? await findPayloadRow(db, projectId, model, { column: 'id_hash', value: payloadHash(id) }, null) : null;
      const grant = row ? grantFromRow(row) : null;
      // A grant ends (the client revoked a refresh token, a used one came back, logout): its tokens go and `oauth_grant.revoked` is sent.
      if (grant) await inSystemTransaction(runtime, (ctx) => revokeStoredGrant(ctx, projectId, grant));
      else await deletePayloadRow(db, projectId, model, payloadHash(id));
    },
    async revokeByGrantId(grantId) {
      await beforeWrite();
      await deleteGrantRows(db, projectId, grantId, GRANT_MODEL);
    },
  };
}
