import type { OperationContext } from '../operations/define.ts';
import type { Project } from './queries.ts';

/**
 * Runs the project-created listeners wired in `createCore` (core/hooks.ts) inside the
 * transaction that creates a project; called by project creation and by the internal-project
 * seed.
 */
export async function runProjectCreatedHooks(ctx: OperationContext, project: Project): Promise<void> {
  for (const hook of ctx.runtime.hooks.projectCreated) await hook(ctx, project);
}
