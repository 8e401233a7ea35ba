import { createRuntime, type Runtime, type RuntimeOptions } from './runtime.ts';
import type { AuthDirectory } from './auth/directory.ts';
import { coreHooks, type CoreHooks } from './hooks.ts';
import { findProject, type Project as ProjectOfProjects } from './projects/index.ts';
import { restrictedReasonOf, type UserRow as UserOfUsers } from './users/index.ts';
import { findUserForRequest } from './users/queries.ts';
import { isTeamMember } from './team-membership/index.ts';
import { findProjectKeyExpiry } from './internal-api-keys/queries.ts';
import { createSessionRevocations, type SessionRevocations } from './sessions/revocations.ts';
import { createSessionActivityWriter, type SessionActivityWriter } from './sessions/activity-writer.ts';
import { resolveAiOptions, type AiOptions, type ResolvedAiOptions } from './ai-chat/options.ts';
import { setVerifiedDomainTeams } from './sso/index.ts';
import { findVerifiedDomain } from './team-domains/index.ts';
import { PASSWORD_HASH_COST, TEST_PASSWORD_HASH_COST, type PasswordHashCost } from './auth-password/index.ts';

/*
 * The composition root of the kernel and the domains (with core/index.ts, core/hooks.ts and the
 * operation registry, core/operations/registry.ts): the kernel (core/runtime.ts, operations/,
 * config/, auth/, storage/, lib/, errors/, tokens/) declares interfaces and names no domain; this
 * file registers the domains' types with it and builds the services it runs with.
 * test/architecture/boundaries.test.ts holds the kernel to that.
 */

// Verified team domains (core/team-domains) feed SSO's home-realm discovery and decide when a
// connection's IdP may vouch for an address (core/sso/email-routing.ts): one team of a project
// holds a domain verified at a time.
setVerifiedDomainTeams(async (db, projectId, domain) => {
  const row = await findVerifiedDomain(db, projectId, domain);
  return row ? [row.team_id] : [];
});

declare module './runtime.ts' {
  /** The domains' services every operation reaches through `ctx.runtime`. */
  interface RuntimeServices {
    /** Sessions revoked recently, shared across processes (core/sessions/revocations.ts). */
    readonly revocations: SessionRevocations;
    /** Group commit of refresh activity writes (core/sessions/activity-writer.ts). */
    readonly sessionActivity: SessionActivityWriter;
    /** Listeners of cross-domain events (core/hooks.ts). */
    readonly hooks: CoreHooks;
    /** The dashboard assistant's deployment settings and limits (core/ai-chat/options.ts). */
    readonly ai: ResolvedAiOptions;
    /** The argon2id cost of new password hashes (core/auth-password/hashing.ts). */
    readonly passwordHashCost: PasswordHashCost;
  }
}

declare module './auth/subjects.ts' {
  /** A request's project and user are the projects and users domains' own types. */
  interface AuthSubjectTypes {
    project: ProjectOfProjects;
    user: UserOfUsers;
  }
}

/** The runtime options and the domains' own: what `createCore` passes on. */
export interface WiredRuntimeOptions extends RuntimeOptions {
  /** Listeners to run after Gatehouse's own on cross-domain events (core/hooks.ts). */
  hooks?: Partial<CoreHooks>;
  /**
   * How long another process's session revocation may take to reach this one, in ms (default
   * 2000): the staleness bound of the revoked-session set (core/sessions/revocations.ts).
   */
  revocationPollMs?: number;
  /** The dashboard assistant's model endpoint and limits (core/ai-chat/options.ts); default: off. */
  ai?: AiOptions;
  /**
   * Tests only: new password hashes at TEST_PASSWORD_HASH_COST (core/auth-password/hashing.ts)
   * instead of the OWASP cost, for suites that sign users up by the thousand. Refused in the
   * `production` environment; only code can set it (no setting or environment variable does).
   */
  testPasswordHashing?: boolean;
}

/**
 * Builds the runtime with the domains wired in: the session revocation set and activity writer,
 * Gatehouse's cross-domain listeners (then `options.hooks`), the assistant's settings, and the
 * lookups of request authentication.
 *
 * @throws Error for a test-only option in `production` (see createRuntime; testPasswordHashing).
 */
export function createWiredRuntime(options: WiredRuntimeOptions): Runtime {
  if (options.testPasswordHashing && (options.environment ?? 'production') === 'production') {
    throw new Error('testPasswordHashing is a test-only option and cannot be used in the production environment');
  }
  return createRuntime(options, (kernel) => {
    const revocations = createSessionRevocations(kernel.db, kernel.accessTokenTtlMs, options.revocationPollMs ?? 2000);
    const directory: AuthDirectory = {
      findProject,
      findUserForRequest,
      findProjectKeyExpiry,
      isTeamMember,
      isAnonymous: (user) => user.is_anonymous,
      restrictedReasonOf,
      isSessionRevoked: (refreshTokenId) => revocations.isRevoked(refreshTokenId),
    };
    return {
      directory,
      revocations,
      sessionActivity: createSessionActivityWriter(kernel.db),
      hooks: coreHooks(options.hooks),
      ai: resolveAiOptions(options.ai),
      passwordHashCost: options.testPasswordHashing ? TEST_PASSWORD_HASH_COST : PASSWORD_HASH_COST,
    };
  });
}
