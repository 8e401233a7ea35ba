import type { Runtime } from '../../core/runtime.ts';
import type { Project } from '../../core/projects/index.ts';
import type { ApiAnswer, ApiRequest } from '../api/answer.ts';

/**
 * The interaction pages of the authorization flow (sign-in through the project's hosted pages,
 * then consent): answers `<issuer>/interaction/<uid>…`, or null for every other path.
 */
export async function interactionRoutes(
  _runtime: Runtime,
  _project: Project,
  _provider: any,
  _request: ApiRequest,
  rest: string,
): Promise<ApiAnswer | null> {
  if (!rest.startsWith('/interaction/')) return null;
  return {
    requestId: '',
    status: 501,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ error: 'temporarily_unavailable', error_description: 'Interactive sign-in is not available yet.' }),
  };
}
