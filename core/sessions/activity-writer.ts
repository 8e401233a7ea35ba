import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import { isNewActiveDay, utcDay, writeSessionActivity, type ActivityWrites } from './queries.ts';

/** One refresh's activity: session `sessionId` of `userId` was used at `now` (epoch ms, the request's `ctx.now`). */
export interface SessionTouch {
  projectId: string;
  sessionId: string;
  userId: string;
  now: number;
  /** The user's `last_active_at` as read before this refresh (epoch ms), or null: decides the active-day row. */
  previousActiveAt: number | null;
  /** The refreshing request's `User-Agent` when it differs from the stored one. */
  userAgent?: string;
  /** The refreshing request's place (JSON, core/lib/geoip.ts) when it differs from the stored one. */
  place?: string;
}

/**
 * Group commit of refresh activity: concurrent refreshes' writes to
 * `refresh_tokens.last_used_at`, `users.last_active_at` and `user_active_days` share one
 * transaction, so a burst of refreshes costs one commit (one WAL fsync on SQLite, which blocks
 * the event loop) instead of one each.
 */
export interface SessionActivityWriter {
  /**
   * Queues `touch` for the next batch and resolves once that batch has committed (durable: a
   * refresh answered after this resolved keeps its writes through a crash).
   * @throws the batch transaction's error (a storage error, mapped by the host as usual, e.g.
   *   DATABASE_UNAVAILABLE for a busy SQLite), to every touch of the failed batch.
   */
  record(touch: SessionTouch): Promise<void>;
  /** Resolves when every queued touch has been written or has failed (before closing the storage). */
  drain(): Promise<void>;
}

/** Default of the most touches one batch transaction writes. */
export const ACTIVITY_BATCH_MAX = 256;

interface Pending {
  touch: SessionTouch;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Creates the writer of one runtime. A batch starts on the next event-loop turn after the first
 * queued touch (`setImmediate`: no timer delay, so every request that arrived in the same turn
 * joins it), holds at most `maxBatch` touches, and runs alone: touches queued while a batch
 * commits form the next one. Rows are deduplicated within a batch (planActivityWrites).
 */
export function createSessionActivityWriter(db: Kysely<Database>, maxBatch = ACTIVITY_BATCH_MAX): SessionActivityWriter {
  let queue: Pending[] = [];
  let scheduled = false;
  let running: Promise<void> | null = null;

  function schedule(): void {
    if (scheduled || running) return;
    scheduled = true;
    setImmediate(runNext);
  }

  function runNext(): void {
    scheduled = false;
    const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
    queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
    if (batch.length === 0) return;
    running = writeBatch(batch).finally(() => {
      running = null;
      if (queue.length > 0) schedule();
    });
  }

  async function writeBatch(batch: Pending[]): Promise<void> {
    try {
      const writes = planActivityWrites(batch.map((p) => p.touch));
      await db.transaction().execute((trx) => writeSessionActivity(trx, writes));
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    for (const p of batch) p.resolve();
  }

  return {
    record(touch) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ touch, resolve, reject });
        schedule();
      });
    },
    async drain() {
      while (running || scheduled || queue.length > 0) {
        await (running ?? new Promise<void>((resolve) => setImmediate(resolve)));
      }
    },
  };
}

/**
 * The writes of a batch of touches: each session and each user once, at the latest of its
 * times; an active-day row for every touch whose user's previous activity was on another UTC
 * day (isNewActiveDay), once per (project, day, user). Sorted by id (see writeSessionActivity).
 */
export function planActivityWrites(touches: readonly SessionTouch[]): ActivityWrites {
  const sessions = new Map<string, { id: string; usedAt: number; userAgent?: string; place?: string }>();
  const users = new Map<string, { projectId: string; id: string; activeAt: number }>();
  const days = new Map<string, { project_id: string; day: string; user_id: string }>();
  for (const t of touches) {
    const session = sessions.get(t.sessionId);
    if (!session) sessions.set(t.sessionId, { id: t.sessionId, usedAt: t.now });
    const entry = sessions.get(t.sessionId)!;
    if (session) entry.usedAt = Math.max(entry.usedAt, t.now);
    if (t.userAgent !== undefined) entry.userAgent = t.userAgent;
    if (t.place !== undefined) entry.place = t.place;
    const userKey = `${t.projectId}\u0000${t.userId}`;
    const user = users.get(userKey);
    if (!user) users.set(userKey, { projectId: t.projectId, id: t.userId, activeAt: t.now });
    else user.activeAt = Math.max(user.activeAt, t.now);
    if (isNewActiveDay(t.now, t.previousActiveAt)) {
      const day = utcDay(t.now);
      days.set(`${userKey}\u0000${day}`, { project_id: t.projectId, day, user_id: t.userId });
    }
  }
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    sessions: [...sessions.values()].sort(byId),
    users: [...users.values()].sort((a, b) => byId(a, b) || compareText(a.projectId, b.projectId)),
    activeDays: [...days.values()].sort(
      (a, b) => compareText(a.project_id, b.project_id) || compareText(a.day, b.day) || compareText(a.user_id, b.user_id),
    ),
  };
}
