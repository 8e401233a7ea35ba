import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { StatusError } from '../errors/index.ts';
import { themeExists } from './sources.ts';

/**
 * Project config check (wired in core/hooks.ts): a project's `email_theme` must name one of its
 * themes (upstream: 400 "Invalid email theme").
 */
export async function checkEmailThemeSetting(ctx: OperationContext, next: Project): Promise<void> {
  const id = next.config.emailThemeId;
  if (id !== null && !(await themeExists(ctx.db, next.id, id))) throw new StatusError('bad-request', 'Invalid email theme');
}
