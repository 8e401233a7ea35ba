import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';

/** What every SCIM resource handler works in: the authenticated team and its project. */
export interface ScimScope {
  /** A system context (no request auth): `ctx.transaction`, clock, `afterCommit`. */
  ctx: OperationContext;
  /** Runs the `afterCommit` work queued so far (session revocations, webhook kicks). */
  flush(): Promise<void>;
  project: Project;
  teamId: string;
  /** The team's SCIM base URL (resource `meta.location`s are under it). */
  baseUrl: string;
}

/** RFC 3339 time of an epoch-ms instant (SCIM `meta.created` / `lastModified`). */
export function scimTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** A weak version tag of a resource (`meta.version`, RFC 7644 §3.14). */
export function scimVersion(ms: number): string {
  return `W/"${ms.toString(36)}"`;
}
