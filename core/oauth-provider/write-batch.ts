import { AsyncLocalStorage } from 'node:async_hooks';
import type { Runtime } from '../runtime.ts';
import {
  consumeAndUpsertPayloadRowsPg,
  consumeUnconsumedPayloadRow,
  upsertPayloadRow,
  upsertPayloadRows,
  type PayloadRow,
  type RefreshContext,
} from './queries.ts';

/** The models whose writes a token request holds back until its answer is ready (one per grant: rotated refresh token, new tokens). */
const BATCHED_MODELS = new Set(['RefreshToken', 'AccessToken']);

/** A refresh token consumption held back by a batch. */
interface PendingConsume {
  projectId: string;
  model: string;
  idHash: string;
  /** Epoch ms. */
  now: number;
}

/** What {@link PayloadWriteBatch.flush} did: `refused` when the held-back refresh-token consumption found the token already consumed or gone. */
type BatchOutcome = { kind: 'written' } | { kind: 'refused'; projectId: string; grantId: string | null };

const current = new AsyncLocalStorage<PayloadWriteBatch>();

/**
 * The identity provider's writes of one token request (POST `/token`), held back and written
 * together once the provider has answered, before the answer leaves: a refresh grant's three
 * writes (the old refresh token consumed, the new refresh token, the access token) become one
 * conditional update and one two-row insert in one transaction on SQLite (one commit, so one
 * `fsync`, instead of three: the benchmark's refresh grants were bound by them), one statement on
 * PostgreSQL (one round trip instead of three).
 *
 * Only consumptions of `RefreshToken` and upserts of `RefreshToken` / `AccessToken` are held;
 * any other storage call of the request (a read, a revocation, another model's write) first writes
 * what is held, so the provider's order of effects is kept. The held consumption only consumes a
 * token nobody consumed meanwhile: when a concurrent request rotated the same refresh token first
 * (or its grant was revoked), the request's new tokens are not kept (not written on SQLite; on
 * PostgreSQL written in the same statement and removed with the grant) and the caller answers
 * `invalid_grant` and revokes the grant, as for any reuse (token-writes.ts).
 */
export class PayloadWriteBatch {
  private consume: PendingConsume | null = null;
  private rows: PayloadRow[] = [];
  private closed = false;
  /** Set once a held consumption was refused: the rotation's later writes are dropped. */
  private refused: BatchOutcome | null = null;

  /**
   * What the request's refresh-token lookup read along with the token (queries.ts
   * findRefreshContext): its grant and account, each taken once by the lookup that asks for it
   * next, and forgotten at the request's first write.
   */
  private prefetched: { projectId: string; context: RefreshContext } | null = null;

  private readonly runtime: Runtime;

  constructor(runtime: Runtime) {
    this.runtime = runtime;
  }

  /** Runs `fn` (the provider's handling of the request) with this batch as the request's. */
  run<T>(fn: () => T): T {
    return current.run(this, fn);
  }

  /** Keeps what a refresh-token lookup of project `projectId` read with the token, for the grant and account lookups that follow. */
  rememberRefreshContext(projectId: string, context: RefreshContext): void {
    this.prefetched = { projectId, context };
  }

  /** The grant row read with the refresh token when it is grant `idHash` of the project (once), else undefined. */
  takePrefetchedGrant(projectId: string, idHash: string): NonNullable<RefreshContext['grant']> | undefined {
    const grant = this.prefetched?.projectId === projectId ? this.prefetched.context.grant : null;
    if (!grant || grant.id_hash !== idHash) return undefined;
    this.prefetched!.context = { ...this.prefetched!.context, grant: null };
    return grant;
  }

  /**
   * The account read with the refresh token (null: no such user) when it is user `userId` for
   * grant `grantId` of the project (once), else undefined: the caller reads it itself.
   */
  takePrefetchedAccount(projectId: string, userId: string, grantId: string): RefreshContext['account'] | undefined {
    const prefetched = this.prefetched;
    if (!prefetched || prefetched.projectId !== projectId) return undefined;
    const { token, account } = prefetched.context;
    if (token.account_id !== userId || token.grant_id !== grantId) return undefined;
    this.prefetched = null;
    return account;
  }

  /** Drops what was read ahead: the request writes (any model), so later lookups read afresh. */
  forgetPrefetched(): void {
    this.prefetched = null;
  }

  /** Holds the consumption of `idHash` (model `RefreshToken`); false when it must be written now. */
  holdConsume(projectId: string, model: string, idHash: string, at: number): boolean {
    this.prefetched = null;
    if (this.refused && model === 'RefreshToken') return true;
    if (this.closed || model !== 'RefreshToken' || this.consume || this.rows.length > 0) return false;
    this.consume = { projectId, model, idHash, now: at };
    return true;
  }

  /** Holds an upsert of a `RefreshToken` / `AccessToken` row; false when it must be written now. */
  holdUpsert(row: PayloadRow): boolean {
    this.prefetched = null;
    if (this.refused && BATCHED_MODELS.has(row.model)) return true;
    if (this.closed || !BATCHED_MODELS.has(row.model) || this.rows.length >= 2) return false;
    this.rows.push(row);
    return true;
  }

  /** Whether writes are held (another storage call must {@link flush} first). */
  get pending(): boolean {
    return this.consume !== null || this.rows.length > 0;
  }

  /**
   * Writes what is held and keeps holding; after `close` (the request answered) nothing more is
   * held. Throws what the database throws (nothing of the batch is then written on SQLite).
   */
  async flush(close = false): Promise<BatchOutcome> {
    if (close) this.closed = true;
    this.prefetched = null;
    const { consume, rows } = this;
    this.consume = null;
    this.rows = [];
    if (this.refused || (!consume && rows.length === 0)) return this.refused ?? { kind: 'written' };
    const refused = (): BatchOutcome => ({
      kind: 'refused',
      projectId: consume!.projectId,
      grantId: rows.find((r) => r.grant_id !== null)?.grant_id ?? null,
    });
    const postgres = this.runtime.storage.dialect === 'postgres';
    if (postgres && consume && rows.length > 0) {
      // One statement (a data-modifying `with`): the rows are stored even when refused, and the refusal revokes their grant.
      const consumed = await consumeAndUpsertPayloadRowsPg(this.runtime.db, consume, rows.length === 2 ? [rows[0]!, rows[1]!] : [rows[0]!]);
      if (!consumed) this.refused = refused();
      return this.refused ?? { kind: 'written' };
    }
    const write = async (db: Runtime['db']): Promise<BatchOutcome> => {
      if (consume && !(await consumeUnconsumedPayloadRow(db, consume.projectId, consume.model, consume.idHash, consume.now)))
        return refused();
      if (rows.length === 2) await upsertPayloadRows(db, rows[0]!, rows[1]!);
      else if (rows.length === 1) await upsertPayloadRow(db, rows[0]!);
      return { kind: 'written' };
    };
    // SQLite commits (and syncs) once for the whole batch; a refused consumption writes nothing.
    const twoStatements = consume !== null && rows.length > 0;
    const outcome = twoStatements ? await this.runtime.db.transaction().execute(write) : await write(this.runtime.db);
    if (outcome.kind === 'refused') this.refused = outcome;
    return outcome;
  }
}

/** The write batch of the token request being handled, if any. */
export function currentWriteBatch(): PayloadWriteBatch | undefined {
  return current.getStore();
}
