import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import { listRevokedSince, pruneRevokedSessions } from './queries.ts';

/**
 * The set of recently revoked sessions, shared by every process through the `revoked_sessions`
 * table and kept in memory per process (ASVS 5.0 V7.4.1 / V9.1).
 *
 * An access token is a self-contained ES256 JWT valid until its `exp`; Gatehouse's own endpoints
 * additionally refuse one whose session (`refresh_token_id`) was revoked (sign-out, session
 * deletion, password reset or change). This process sees its own revocations at once; another
 * process's within `pollMs` (default 2 s): the set is re-read, incrementally, at most once per
 * `pollMs`, by the first request that needs it. Third parties that verify tokens through the JWKS
 * cannot see this set and stay bound by the token lifetime (docs/security.md).
 *
 * Times here are real wall-clock ms (`Date.now()`), not the injected clock: the set is about how
 * long a revocation must be remembered, which is the access-token lifetime plus a margin.
 */
export interface SessionRevocations {
  /** True when `refreshTokenId` was revoked; re-reads the shared set when it is older than `pollMs`. */
  isRevoked(refreshTokenId: string): Promise<boolean>;
  /** Adds revocations this process has just committed (no wait for the next poll). */
  remember(refreshTokenIds: readonly string[]): void;
}

/** How far back each poll looks again, in ms, so a revocation committed late is not missed. */
const POLL_OVERLAP_MS = 30_000;
/** Revocations are kept this long beyond the access-token lifetime, in ms. */
const RETENTION_MARGIN_MS = 60_000;
/** How often one process deletes expired revocation rows, in ms. */
const PRUNE_EVERY_MS = 60_000;

/**
 * Creates the per-process view of the revocation set.
 *
 * @param accessTokenTtlMs the access-token lifetime: revocations older than it plus a minute are forgotten.
 * @param pollMs staleness bound of the view, in ms (default 2000; 0 reads the table on every check).
 */
export function createSessionRevocations(db: Kysely<Database>, accessTokenTtlMs: number, pollMs = 2000): SessionRevocations {
  const revoked = new Map<string, number>();
  const retentionMs = accessTokenTtlMs + RETENTION_MARGIN_MS;
  let polledAt = -Infinity;
  let newestSeen = 0;
  let prunedAt = 0;
  let inFlight: Promise<void> | null = null;

  async function poll(): Promise<void> {
    const started = performance.now();
    const now = Date.now();
    const since = newestSeen > 0 ? newestSeen - POLL_OVERLAP_MS : now - retentionMs;
    const rows = await listRevokedSince(db, since);
    for (const row of rows) {
      revoked.set(row.refresh_token_id, row.revoked_at);
      if (row.revoked_at > newestSeen) newestSeen = row.revoked_at;
    }
    if (newestSeen === 0) newestSeen = now - POLL_OVERLAP_MS;
    for (const [id, at] of revoked) if (at < now - retentionMs) revoked.delete(id);
    if (now - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = now;
      await pruneRevokedSessions(db, now - retentionMs);
    }
    polledAt = started;
  }

  return {
    async isRevoked(refreshTokenId) {
      if (performance.now() - polledAt >= pollMs) {
        inFlight ??= poll().finally(() => {
          inFlight = null;
        });
        await inFlight;
      }
      return revoked.has(refreshTokenId);
    },
    remember(ids) {
      const now = Date.now();
      for (const id of ids) revoked.set(id, now);
    },
  };
}
