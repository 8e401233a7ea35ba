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

type ConfigCheck = (ctx: OperationContext, next: Project) => Promise<void>;
const configChecks: ConfigCheck[] = [];

/**
 * Registers a check of a project's new settings that needs another domain's data (e.g. the email
 * domain refuses an `email_theme` that names no theme). Checks run inside the transaction of
 * project create and update, before the change is stored, and throw to refuse it.
 */
export function onProjectConfigCheck(check: ConfigCheck): void {
  configChecks.push(check);
}

/** Runs the registered config checks on the project as it would be stored. */
export async function runProjectConfigChecks(ctx: OperationContext, next: Project): Promise<void> {
  for (const check of configChecks) await check(ctx, next);
}

/** Runs the project-created hooks; called by project creation and by the internal-project seed. */
export async function runProjectCreatedHooks(ctx: OperationContext, project: Project): Promise<void> {
  for (const hook of createdHooks) await hook(ctx, project);
}
