import type { Runtime } from '../runtime.ts';
import { GRANT_MODEL } from './grants.ts';
import { oidcModelStore } from './payloads.ts';
import { PayloadWriteBatch } from './write-batch.ts';

/**
 * Runs `handle` (the provider's handling of one token request, POST `/token`) with its refresh
 * and access token writes held back and written together when it is done (write-batch.ts).
 * `refused` is true when the refresh token it rotated had been consumed meanwhile by a concurrent
 * request (or revoked with its grant): none of the request's new tokens were stored, the grant is
 * revoked as for a reused refresh token (its tokens deleted, `oauth_grant.revoked` sent), and the
 * caller must answer `invalid_grant` instead of the provider's answer.
 *
 * @throws what the database throws while writing (the provider's answer must not be sent then).
 */
export async function withTokenWrites<T>(runtime: Runtime, handle: () => Promise<T>): Promise<{ result: T; refused: boolean }> {
  const batch = new PayloadWriteBatch(runtime);
  let result: T;
  try {
    result = await batch.run(handle);
  } catch (error) {
    // What the provider did is written even when its handling failed, as it would have been at once.
    await batch.flush(true);
    throw error;
  }
  const outcome = await batch.flush(true);
  if (outcome.kind === 'written') return { result, refused: false };
  if (outcome.grantId) await oidcModelStore(runtime, outcome.projectId, GRANT_MODEL).destroy(outcome.grantId);
  return { result, refused: true };
}
