import type { KeyObject } from 'node:crypto';
import type { Runtime } from '../runtime.ts';
import { findProject, type Project } from '../projects/index.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';
import { isUuid } from '../lib/random.ts';
import { audienceFor } from '../tokens/keys.ts';
import { API_PREFIX } from '../operations/api-path.ts';
import { findClientRow, type OAuthClientRow } from './queries.ts';

/** The issuer of project `projectId`'s identity provider: `<base url>/api/v1/projects/<id>/oidc`. */
export function oidcIssuer(baseUrl: string, projectId: string): string {
  return `${baseUrl}${API_PREFIX}/projects/${projectId}/oidc`;
}

/**
 * The project whose identity provider answers at `projectId`'s issuer: it exists and turned
 * `oidc.enabled` on; else null. Read through the request cache every API request uses
 * (core/auth/request-cache.ts: this process's writes are seen at once, other processes' within
 * its TTL, 1 s), so a token grant costs no project query.
 */
export async function identityProviderProject(runtime: Runtime, projectId: string): Promise<Project | null> {
  if (projectId !== INTERNAL_PROJECT_ID && !isUuid(projectId)) return null;
  runtime.requestCache.clearIfWrittenSinceLastClear();
  const project = await runtime.requestCache.project(projectId, () => findProject(runtime.db, projectId));
  return project?.config.oidc.enabled ? project : null;
}

/** The ids of the project's signing keys, the signing key first (what a provider is built with, without exporting them). */
export function oidcSigningKeyIds(runtime: Runtime, projectId: string): string[] {
  return runtime.keys.keysFor(audienceFor(projectId, 'default')).map((key) => key.kid);
}

/** The project's ES256 signing keys (those of its access tokens and JWKS), the signing key first. */
export function oidcSigningKeys(runtime: Runtime, projectId: string): Array<{ kid: string; privateKey: KeyObject }> {
  return runtime.keys.keysFor(audienceFor(projectId, 'default')).map((key) => ({ kid: key.kid, privateKey: key.privateKey }));
}

/** The client `clientId` of the project's identity provider, or null. */
export function findOauthClient(runtime: Runtime, projectId: string, clientId: string): Promise<OAuthClientRow | null> {
  return findClientRow(runtime.db, projectId, clientId);
}
