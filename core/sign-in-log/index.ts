/**
 * A short log of failed sign-ins per project (the assistant's "list recent failed
 * sign-ins" tool). A row names the user when the address tried belongs to one, the factor and
 * the reason; never the address tried, the password or the client's network address. Rows are
 * kept for 30 days.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import { uuid } from '../lib/random.ts';
import { insertFailure, listFailures, pruneFailures, type SignInFailureRow } from './queries.ts';

export type { SignInFailureRow } from './queries.ts';

/** How long failures are kept, in ms. */
export const SIGN_IN_FAILURE_RETENTION_MS = 30 * 24 * 3600 * 1000;

/** Why a sign-in failed. */
export type SignInFailureReason = 'wrong_password' | 'unknown_email' | 'no_password' | 'wrong_code' | 'sso_response_refused';

let lastPrune = 0;

/**
 * Records one failed sign-in. Uses `db` outside the request's transaction on purpose (the
 * request is about to fail and roll back); a failure to record never changes the answer.
 */
export async function recordSignInFailure(
  db: Kysely<Database>,
  entry: { projectId: string; userId: string | null; factor: 'password' | 'mfa' | 'sso'; reason: SignInFailureReason; now: number },
): Promise<void> {
  try {
    await insertFailure(db, {
      id: uuid(),
      project_id: entry.projectId,
      user_id: entry.userId,
      factor: entry.factor,
      reason: entry.reason,
      created_at: entry.now,
    });
    if (Date.now() - lastPrune > 3_600_000) {
      lastPrune = Date.now();
      await pruneFailures(db, entry.now - SIGN_IN_FAILURE_RETENTION_MS);
    }
  } catch {
    // The log is a diagnostic aid: a full disk or a busy database must not turn a wrong password into a 500.
  }
}

/** The project's failed sign-ins of the last `sinceMs` before `now`, newest first (at most `limit`). */
export function recentSignInFailures(
  db: Kysely<Database>,
  projectId: string,
  now: number,
  sinceMs: number,
  limit: number,
): Promise<SignInFailureRow[]> {
  return listFailures(db, projectId, now - sinceMs, limit);
}
