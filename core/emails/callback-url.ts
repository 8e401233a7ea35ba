import { redirectUrlNotWhitelisted } from '../errors/index.ts';
import { isRedirectUrlTrusted } from '../config/domains.ts';
import type { Project } from '../projects/index.ts';
import type { Runtime } from '../runtime.ts';

/**
 * Throws REDIRECT_URL_NOT_WHITELISTED unless `url` is a trusted callback for `project`: localhost
 * when `allow_localhost`, a trusted domain (wildcard rules of `config/domains.ts`), or this server's own origin
 * (its hosted pages).
 */
export function assertCallbackUrlTrusted(runtime: Runtime, project: Project, url: string): void {
  const config = project.config;
  if (
    !isRedirectUrlTrusted(url, {
      allowLocalhost: config.allowLocalhost,
      domains: config.domains,
      extraOrigins: [new URL(runtime.baseUrl).origin],
    })
  ) {
    throw redirectUrlNotWhitelisted(url);
  }
}
