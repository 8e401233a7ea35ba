import { KnownError } from '../errors/index.ts';
import { sha256Hex } from '../lib/hash.ts';
import { isUuid } from '../lib/random.ts';
import type { OperationContext } from '../operations/define.ts';
import { findProject, type Project } from '../projects/index.ts';
import { hasValidProjectKey } from '../internal-api-keys/index.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';

/** The client secret the official SDK sends when it has no publishable key (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-request.tsx). */
export const PUBLIC_CLIENT_SECRET = '__stack_public_client__';

/**
 * Resolves the OAuth client of Stack's SDK: `client_id` is the project id (optionally
 * `#<branch>`, only `main` exists), `client_secret` a publishable key or the public-client
 * sentinel (accepted unless the project requires publishable keys).
 *
 * @throws KnownError INVALID_OAUTH_CLIENT_ID_OR_SECRET, or `badKey` for a wrong publishable key
 */
export async function resolveOAuthClient(
  ctx: OperationContext,
  clientId: string,
  clientSecret: string | undefined,
  badKey: 'INVALID_OAUTH_CLIENT_ID_OR_SECRET' | 'INVALID_PUBLISHABLE_CLIENT_KEY' = 'INVALID_OAUTH_CLIENT_ID_OR_SECRET',
): Promise<Project> {
  const [projectId = '', branchId = 'main'] = clientId.split('#');
  const project = projectId === INTERNAL_PROJECT_ID || isUuid(projectId) ? await findProject(ctx.db, projectId) : null;
  if (!project || branchId !== 'main') throw new KnownError('INVALID_OAUTH_CLIENT_ID_OR_SECRET', { client_id: clientId });
  const secret = clientSecret ?? PUBLIC_CLIENT_SECRET;
  if (secret === PUBLIC_CLIENT_SECRET) {
    if (project.config.requirePublishableClientKey) throw new KnownError('INVALID_OAUTH_CLIENT_ID_OR_SECRET', { client_id: clientId });
  } else if (!(await hasValidProjectKey(ctx.db, project.id, 'publishable_client_key', sha256Hex(secret), ctx.now))) {
    throw badKey === 'INVALID_PUBLISHABLE_CLIENT_KEY'
      ? new KnownError(badKey, { project_id: project.id })
      : new KnownError(badKey, { client_id: clientId });
  }
  return project;
}

/** The trusted-origin options of a project, including the server's own hosted pages. */
export function redirectTrust(ctx: OperationContext, project: Project) {
  return {
    allowLocalhost: project.config.allowLocalhost,
    domains: project.config.domains,
    extraOrigins: [new URL(ctx.runtime.baseUrl).origin],
  };
}
