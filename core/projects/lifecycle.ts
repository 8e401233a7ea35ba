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

/**
 * Runs the checks of a project's new settings that need another domain's data (wired in
 * core/hooks.ts, e.g. the email domain refuses an `email_theme` that names no theme), inside the
 * transaction of project create and update, before the change is stored; a check throws to
 * refuse it.
 */
export async function runProjectConfigChecks(ctx: OperationContext, next: Project): Promise<void> {
  for (const check of ctx.runtime.hooks.projectConfigCheck) await check(ctx, next);
}
