import type { OperationContext } from '../operations/define.ts';
import { updateUser } from '../users/index.ts';
import { countUserPasskeys, deleteUserPasskeyRows } from './queries.ts';

/**
 * Keeps `users.passkey_auth_enabled` equal to "the user holds at least one passkey", as upstream
 * derives `passkey_auth_enabled` (users/crud.tsx: true iff a passkey auth method exists). Call it
 * inside the transaction that added or removed a passkey.
 */
export async function syncPasskeyFlag(ctx: OperationContext, projectId: string, userId: string): Promise<void> {
  const count = await countUserPasskeys(ctx.db, projectId, userId);
  await updateUser(ctx.db, projectId, userId, { passkey_auth_enabled: count > 0 });
}

/**
 * Removes every passkey of a user and clears the flag: what `PATCH /users/*`
 * `{passkey_auth_enabled: false}` does upstream ("this is how we delete the passkey auth method").
 * Joins the caller's transaction.
 */
export async function removeAllPasskeys(ctx: OperationContext, projectId: string, userId: string): Promise<number> {
  const removed = await deleteUserPasskeyRows(ctx.db, projectId, userId);
  await updateUser(ctx.db, projectId, userId, { passkey_auth_enabled: false });
  return removed;
}
