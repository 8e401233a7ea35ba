import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import type { ProjectConfig } from '../config/project-config.ts';
import type { RestrictedReason } from '../tokens/access-token.ts';
import type { Project, User } from './subjects.ts';

/** The three kinds of project key a request may present (upstream smart-request.tsx step 6). */
export type ProjectKeyKind = 'publishable_client_key' | 'secret_server_key' | 'super_secret_admin_key';

/**
 * The lookups request authentication (core/auth/request-auth.ts) needs from the domains that own
 * projects, users, team membership, project keys and sessions. The kernel declares them; the
 * composition root (core/wiring.ts) implements them with those domains' functions and hands them
 * to the runtime (`runtime.directory`), so the kernel imports no domain.
 */
export interface AuthDirectory {
  /** The project with `projectId`, config parsed, or null. */
  findProject(db: Kysely<Database>, projectId: string): Promise<Project | null>;
  /** The user of an access token in `projectId`, with whether it has linked OAuth accounts, or null. */
  findUserForRequest(db: Kysely<Database>, projectId: string, userId: string): Promise<{ user: User; hasOAuthLinks: boolean } | null>;
  /** The expiry (epoch ms, or null for none) of the live key of `kind` whose SHA-256 hex is `hash`, or `false`. */
  findProjectKeyExpiry(
    db: Kysely<Database>,
    projectId: string,
    kind: ProjectKeyKind,
    hash: string,
  ): Promise<{ expiresAt: number | null } | false>;
  /** Whether `userId` is a member of team `teamId` of `projectId`. */
  isTeamMember(db: Kysely<Database>, projectId: string, teamId: string, userId: string): Promise<boolean>;
  /** Whether the user is anonymous (ANONYMOUS_AUTHENTICATION_NOT_ALLOWED unless the caller allows it). */
  isAnonymous(user: User): boolean;
  /** Why the user is restricted under the project's config, or null. */
  restrictedReasonOf(user: User, config: ProjectConfig): RestrictedReason;
  /** Whether the session (refresh token id) was revoked: its access tokens are refused within seconds. */
  isSessionRevoked(refreshTokenId: string): Promise<boolean>;
}
