import type { OperationContext } from '../operations/define.ts';
import type { UserRow } from './queries.ts';

type PrimaryEmailHook = (ctx: OperationContext, projectId: string, before: UserRow, after: UserRow) => Promise<void>;
const hooks: PrimaryEmailHook[] = [];

/**
 * Registers work to run, in the same transaction, when an update changes or removes a user's
 * primary email (the contact-channels domain keeps the old address as a non-primary channel, as
 * upstream demotes rather than deletes it).
 */
export function onPrimaryEmailChanged(hook: PrimaryEmailHook): void {
  hooks.push(hook);
}

export async function runPrimaryEmailChangedHooks(ctx: OperationContext, projectId: string, before: UserRow, after: UserRow): Promise<void> {
  for (const hook of hooks) await hook(ctx, projectId, before, after);
}
