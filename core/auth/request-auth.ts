import { KnownError } from '../errors/index.ts';
import { sha256Hex } from '../lib/hash.ts';
import { isUuid } from '../lib/random.ts';
import type { AccessType } from './access-type.ts';
import type { Credentials } from './credentials.ts';
import type { Runtime } from '../runtime.ts';
import type { ProjectKeyKind } from './directory.ts';
import type { Project, User } from './subjects.ts';
import { verifyAccessToken, type AccessTokenClaims } from '../tokens/access-token.ts';

/** The resolved caller of a request (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-request.tsx), transport-free. */
export interface RequestAuth {
  accessType: AccessType;
  project: Project;
  branchId: string;
  /** The user of the access token, or null. */
  user: User | null;
  /**
   * Whether `user` has linked OAuth provider accounts, read with the user (false: its
   * `oauth_providers` is empty without a query); absent when not known.
   */
  userHasOAuthLinks?: boolean;
  /** Claims of the verified access token, or null. */
  token: AccessTokenClaims | null;
  /** True when an admin access token replaced the key check. */
  viaAdminAccessToken: boolean;
  /** The internal-project user (dashboard owner) behind the admin access token, else null. */
  adminUserId?: string | null;
}

/** The id of the dashboard's own project (upstream apps/backend/prisma/seed.ts). */
export const INTERNAL_PROJECT_ID = 'internal';

const ACCESS_TYPES = new Set(['client', 'server', 'admin']);

/**
 * Resolves project, branch, access type, keys, tokens and user from the caller's credentials
 * (the host read them from its transport: server-bin/api/credentials.ts), in the
 * upstream `parseAuth` order (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-request.tsx):
 * 1. a key or admin token without an access type → PROJECT_KEY_WITHOUT_ACCESS_TYPE;
 * 2. no access type → null (routes that need auth answer ACCESS_TYPE_REQUIRED);
 * 3. INVALID_ACCESS_TYPE; ACCESS_TYPE_WITHOUT_PROJECT_ID;
 * 4. the access token: INVALID_PROJECT_FOR_ACCESS_TOKEN, ACCESS_TOKEN_EXPIRED, UNPARSABLE_ACCESS_TOKEN
 *    (also for a token whose session was revoked, or whose user was deleted);
 * 5. CURRENT_PROJECT_NOT_FOUND, then BRANCH_DOES_NOT_EXIST;
 * 6. keys per access type (or 7. the admin access token instead);
 * then the user: ANONYMOUS_AUTHENTICATION_NOT_ALLOWED, RESTRICTED_USER_NOT_ALLOWED.
 */
export async function resolveRequestAuth(runtime: Runtime, credentials: Credentials): Promise<RequestAuth | null> {
  const now = runtime.clock.now();
  const accessTypeSent = credentials.accessType || undefined;
  const projectId = credentials.projectId || undefined;
  const publishableKey = credentials.publishableClientKey || undefined;
  const secretServerKey = credentials.secretServerKey || undefined;
  const adminKey = credentials.superSecretAdminKey || undefined;
  const adminAccessToken = credentials.adminAccessToken || undefined;
  const accessToken = credentials.accessToken || undefined;

  if (!accessTypeSent) {
    if (publishableKey || secretServerKey || adminKey || adminAccessToken) throw new KnownError('PROJECT_KEY_WITHOUT_ACCESS_TYPE');
    return null;
  }
  if (!ACCESS_TYPES.has(accessTypeSent)) throw new KnownError('INVALID_ACCESS_TYPE', { access_type: accessTypeSent });
  const accessType = accessTypeSent as AccessType;
  if (!projectId) throw new KnownError('ACCESS_TYPE_WITHOUT_PROJECT_ID', { request_type: accessType });

  const token = accessToken ? await verifyLiveAccessToken(runtime, accessToken, projectId, now) : null;

  const project =
    projectId === INTERNAL_PROJECT_ID || isUuid(projectId)
      ? await runtime.requestCache.project(projectId, () => runtime.directory.findProject(runtime.db, projectId))
      : null;
  if (!project) throw new KnownError('CURRENT_PROJECT_NOT_FOUND', { project_id: projectId });

  const branchId = credentials.branchId || 'main';
  if (branchId !== 'main') throw new KnownError('BRANCH_DOES_NOT_EXIST', { branch_id: branchId });

  let viaAdminAccessToken = false;
  let adminUserId: string | null = null;
  if (adminAccessToken) {
    adminUserId = await checkAdminAccessToken(runtime, project, adminAccessToken, now);
    viaAdminAccessToken = true;
  } else {
    await checkProjectKeys(runtime, project, accessType, { publishableKey, secretServerKey, adminKey }, now);
  }

  let user: User | null = null;
  let userHasOAuthLinks: boolean | undefined;
  if (token) {
    const found = await runtime.directory.findUserForRequest(runtime.db, project.id, token.sub);
    // The token outlived its user (deleted): treat it as invalid so clients refresh and sign out.
    if (!found) throw new KnownError('UNPARSABLE_ACCESS_TOKEN');
    user = found.user;
    userHasOAuthLinks = found.hasOAuthLinks;
    const allowAnonymous = credentials.allowAnonymousUser === true;
    const allowRestricted = allowAnonymous || credentials.allowRestrictedUser === true;
    const reason = runtime.directory.restrictedReasonOf(user, project.config);
    if (runtime.directory.isAnonymous(user) && !allowAnonymous) throw new KnownError('ANONYMOUS_AUTHENTICATION_NOT_ALLOWED');
    if (reason && !allowRestricted) throw new KnownError('RESTRICTED_USER_NOT_ALLOWED', { restricted_reason: reason });
  }

  return { accessType, project, branchId, user, userHasOAuthLinks, token, viaAdminAccessToken, adminUserId };
}

/**
 * The one check of an end user's access token wherever Gatehouse accepts one (request
 * credentials, the `token` of an OAuth link flow): ES256 signature, `exp` and audience
 * (verifyAccessToken), the project it was issued for, and a live session: a token whose session
 * was revoked (sign-out, session deletion, password reset or change) is refused within seconds
 * of the revocation, though its signature and `exp` are still good (issue 27
 * finding 3; core/sessions/revocations.ts).
 *
 * @throws KnownError UNPARSABLE_ACCESS_TOKEN (also for a revoked session), ACCESS_TOKEN_EXPIRED,
 *   INVALID_PROJECT_FOR_ACCESS_TOKEN
 */
export async function verifyLiveAccessToken(
  runtime: Runtime,
  accessToken: string,
  projectId: string,
  now: number,
): Promise<AccessTokenClaims> {
  const token = await verifyAccessToken(runtime.keys, accessToken, now);
  if (token.project_id !== projectId) {
    throw new KnownError('INVALID_PROJECT_FOR_ACCESS_TOKEN', { expected_project_id: projectId, actual_project_id: token.project_id });
  }
  await assertSessionLive(runtime, token.refresh_token_id, 'UNPARSABLE_ACCESS_TOKEN');
  return token;
}

/**
 * Refuses a session in the revoked-session set with `code`; what verifyLiveAccessToken and the
 * admin access-token check consult, and what an OAuth link flow re-checks when the provider
 * sends the user back (the session may have ended while the user was at the provider).
 */
export async function assertSessionLive(
  runtime: Runtime,
  refreshTokenId: string,
  code: 'UNPARSABLE_ACCESS_TOKEN' | 'UNPARSABLE_ADMIN_ACCESS_TOKEN' | 'USER_AUTHENTICATION_REQUIRED',
): Promise<void> {
  if (await runtime.directory.isSessionRevoked(refreshTokenId)) throw new KnownError(code);
}

async function checkProjectKeys(
  runtime: Runtime,
  project: Project,
  accessType: AccessType,
  keys: { publishableKey: string | undefined; secretServerKey: string | undefined; adminKey: string | undefined },
  now: number,
): Promise<void> {
  const details = { project_id: project.id };
  if (accessType === 'client') {
    if (!keys.publishableKey) {
      if (project.config.requirePublishableClientKey) throw new KnownError('PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT', details);
      return;
    }
    if (!(await isValidKey(runtime, project.id, 'publishable_client_key', keys.publishableKey, now))) {
      throw new KnownError('INVALID_PUBLISHABLE_CLIENT_KEY', details);
    }
  } else if (accessType === 'server') {
    if (!keys.secretServerKey) throw new KnownError('SERVER_AUTHENTICATION_REQUIRED');
    if (!(await isValidKey(runtime, project.id, 'secret_server_key', keys.secretServerKey, now))) {
      throw new KnownError('INVALID_SECRET_SERVER_KEY', details);
    }
  } else {
    if (!keys.adminKey) throw new KnownError('ADMIN_AUTHENTICATION_REQUIRED');
    if (!(await isValidKey(runtime, project.id, 'super_secret_admin_key', keys.adminKey, now))) {
      throw new KnownError('INVALID_SUPER_SECRET_ADMIN_KEY', details);
    }
  }
}

/** A project key check through the request cache (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-request.tsx step 6). */
async function isValidKey(runtime: Runtime, projectId: string, kind: ProjectKeyKind, value: string, now: number): Promise<boolean> {
  const hash = sha256Hex(value);
  const key = await runtime.requestCache.key(`${projectId}:${kind}:${hash}`, () =>
    runtime.directory.findProjectKeyExpiry(runtime.db, projectId, kind, hash),
  );
  return key !== false && (key.expiresAt === null || key.expiresAt > now);
}

/**
 * An admin access token is an internal-project user's access token; it stands in for the keys
 * when that user belongs to the project's owner team (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-request.tsx step 7).
 */
async function checkAdminAccessToken(runtime: Runtime, project: Project, token: string, now: number): Promise<string> {
  const claims = await verifyAccessToken(runtime.keys, token, now, true);
  if (claims.project_id !== INTERNAL_PROJECT_ID) throw new KnownError('INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN');
  await assertSessionLive(runtime, claims.refresh_token_id, 'UNPARSABLE_ADMIN_ACCESS_TOKEN');
  const owner = project.ownerTeamId;
  if (!owner || !(await runtime.directory.isTeamMember(runtime.db, INTERNAL_PROJECT_ID, owner, claims.sub))) {
    throw new KnownError('ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
  }
  return claims.sub;
}

/** Error codes request authentication may raise; every authenticated operation may answer them. */
export const REQUEST_AUTH_ERRORS = [
  'PROJECT_KEY_WITHOUT_ACCESS_TYPE',
  'INVALID_ACCESS_TYPE',
  'ACCESS_TYPE_WITHOUT_PROJECT_ID',
  'ACCESS_TYPE_REQUIRED',
  'INSUFFICIENT_ACCESS_TYPE',
  'INVALID_PROJECT_FOR_ACCESS_TOKEN',
  'ACCESS_TOKEN_EXPIRED',
  'UNPARSABLE_ACCESS_TOKEN',
  'CURRENT_PROJECT_NOT_FOUND',
  'BRANCH_DOES_NOT_EXIST',
  'PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT',
  'INVALID_PUBLISHABLE_CLIENT_KEY',
  'SERVER_AUTHENTICATION_REQUIRED',
  'INVALID_SECRET_SERVER_KEY',
  'ADMIN_AUTHENTICATION_REQUIRED',
  'INVALID_SUPER_SECRET_ADMIN_KEY',
  'UNPARSABLE_ADMIN_ACCESS_TOKEN',
  'ADMIN_ACCESS_TOKEN_EXPIRED',
  'INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN',
  'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN',
  'ANONYMOUS_AUTHENTICATION_NOT_ALLOWED',
  'RESTRICTED_USER_NOT_ALLOWED',
  'SCHEMA_ERROR',
  'BODY_PARSING_ERROR',
] as const;
