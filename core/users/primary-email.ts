import type { Updateable } from 'kysely';
import { uuid } from '../lib/random.ts';
import type { OperationContext } from '../operations/define.ts';
import type { UsersTable } from '../storage/tables.ts';
import type { UserRow } from './queries.ts';

type PrimaryEmailHook = (ctx: OperationContext, projectId: string, current: UserRow, columns: Updateable<UsersTable>) => Promise<void>;
const hooks: PrimaryEmailHook[] = [];

/**
 * Registers work to run, in the caller's transaction and before the user row is written, when an
 * update changes or removes a user's primary email. The hook may complete `columns` (the contact-
 * channels domain keeps the old address as a non-primary channel with its id, and promotes an
 * existing channel holding the new address with its id and verified flag, as upstream's users
 * `crud.tsx` demotes and promotes channels rather than deleting them).
 */
export function onPrimaryEmailChange(hook: PrimaryEmailHook): void {
  hooks.push(hook);
}

/**
 * Runs the registered hooks when `columns.primary_email` changes `current`'s primary email, then
 * fills what no hook decided: a new address is unverified, and gets a fresh channel id.
 */
export async function applyPrimaryEmailChange(
  ctx: OperationContext,
  projectId: string,
  current: UserRow,
  columns: Updateable<UsersTable>,
): Promise<void> {
  if (columns.primary_email === undefined || columns.primary_email === current.primary_email) return;
  for (const hook of hooks) await hook(ctx, projectId, current, columns);
  if (columns.primary_email_verified === undefined) columns.primary_email_verified = false;
  if (columns.primary_email_channel_id === undefined) columns.primary_email_channel_id = columns.primary_email === null ? null : uuid();
}
