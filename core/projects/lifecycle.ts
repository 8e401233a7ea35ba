import type { OperationContext } from '../operations/define.ts';
import type { Project } from './queries.ts';

type ProjectHook = (ctx: OperationContext, project: Project) => Promise<void>;
const createdHooks: ProjectHook[] = [];

/**
 * Registers work to run inside the transaction that creates a project (e.g. the default
 * permission definitions of wire-protocol §2, the default email theme).
 */
export function onProjectCreated(hook: ProjectHook): void {
  createdHooks.push(hook);
}

/** Runs the project-created hooks; called by project creation and by the internal-project seed. */
export async function runProjectCreatedHooks(ctx: OperationContext, project: Project): Promise<void> {
  for (const hook of createdHooks) await hook(ctx, project);
}
