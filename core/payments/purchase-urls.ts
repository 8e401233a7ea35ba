import { isRedirectUrlTrusted } from '../config/domains.ts';
import { redirectUrlNotWhitelisted } from '../errors/index.ts';
import type { Project } from '../projects/index.ts';
import type { Runtime } from '../runtime.ts';

/** The hosted handler base of a project (`/handler` for the internal project, else `/projects/{id}/handler`). */
export function hostedHandlerBase(runtime: Runtime, projectId: string): string {
  return `${runtime.baseUrl}${projectId === 'internal' ? '' : `/projects/${projectId}`}/handler`;
}

/**
 * The hosted purchase page of a full purchase code, `…/handler/purchase/<code>[?return_url=…]`:
 * the code in the path as upstream's dashboard link has it (`<dashboard>/purchase/<code>`; its e2e
 * tests read the code with `/\/purchase\/([a-z0-9-_]+)/`). The page also accepts the older
 * `…/handler/purchase?code=…`.
 */
export function purchasePageUrl(runtime: Runtime, projectId: string, fullCode: string, returnUrl: string | null): string {
  const url = new URL(`${hostedHandlerBase(runtime, projectId)}/purchase/${encodeURIComponent(fullCode)}`);
  if (returnUrl) url.searchParams.set('return_url', returnUrl);
  return url.toString();
}

/** @throws REDIRECT_URL_NOT_WHITELISTED unless `url` is a trusted domain of the project, localhost when allowed, or this server. */
export function assertReturnUrlTrusted(runtime: Runtime, project: Project, url: string): void {
  if (
    !isRedirectUrlTrusted(url, {
      allowLocalhost: project.config.allowLocalhost,
      domains: project.config.domains,
      extraOrigins: [new URL(runtime.baseUrl).origin],
    })
  ) {
    throw redirectUrlNotWhitelisted(url);
  }
}
