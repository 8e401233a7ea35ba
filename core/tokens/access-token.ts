import { verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { KnownError } from '../errors/index.ts';
import { audienceFor, type AudienceKind, type KeyRing } from './keys.ts';
import { LRUCache } from 'lru-cache';
import { parseJsonText } from '../lib/json-text.ts';
import { API_PREFIX } from '../operations/api-path.ts';

/** `restricted_reason` of a user (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/). */
export type RestrictedReason = { type: 'anonymous' | 'email_not_verified' | 'restricted_by_administrator' } | null;

/**
 * The access-token payload: exactly the claims of upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/tokens.tsx (the upstream tests compare
 * with `toEqual`, so no claim may be added).
 */
export interface AccessTokenClaims {
  sub: string;
  iss: string;
  aud: string;
  iat: number;
  exp: number;
  project_id: string;
  branch_id: string;
  refresh_token_id: string;
  role: 'authenticated';
  name: string | null;
  email: string | null;
  email_verified: boolean;
  selected_team_id: string | null;
  /** Seconds since the epoch. */
  signed_up_at: number;
  is_anonymous: boolean;
  is_restricted: boolean;
  restricted_reason: RestrictedReason;
  requires_totp_mfa: boolean;
}

/** What a token is issued for: the user facts copied into claims. */
export interface AccessTokenSubject {
  projectId: string;
  branchId: string;
  userId: string;
  refreshTokenId: string;
  displayName: string | null;
  primaryEmail: string | null;
  primaryEmailVerified: boolean;
  selectedTeamId: string | null;
  /** Epoch ms. */
  signedUpAt: number;
  isAnonymous: boolean;
  restrictedReason: RestrictedReason;
  requiresTotpMfa: boolean;
}

function audienceKind(subject: Pick<AccessTokenSubject, 'isAnonymous' | 'restrictedReason'>): AudienceKind {
  if (subject.isAnonymous) return 'anonymous';
  return subject.restrictedReason ? 'restricted' : 'default';
}

/** `iss` for a project and audience kind (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/tokens.tsx "Issuer"). */
export function issuerFor(baseUrl: string, projectId: string, kind: AudienceKind): string {
  const segment = kind === 'default' ? 'projects' : kind === 'restricted' ? 'projects-restricted-users' : 'projects-anonymous-users';
  return `${baseUrl}${API_PREFIX}/${segment}/${projectId}`;
}

/**
 * Signs an ES256 access token for `subject`.
 *
 * @param nowMs issue time, epoch ms (injected clock)
 * @param ttlMs lifetime in ms (default 10 minutes, upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/tokens.tsx)
 * @param extraClaims the project's custom claims (its claims template; never a claim above, which
 *   the template refuses); none by default, so the payload is exactly upstream's.
 */
export async function signAccessToken(
  keys: KeyRing,
  baseUrl: string,
  subject: AccessTokenSubject,
  nowMs: number,
  ttlMs: number,
  extraClaims: Readonly<Record<string, unknown>> = {},
): Promise<string> {
  const kind = audienceKind(subject);
  const aud = audienceFor(subject.projectId, kind);
  const [key] = keys.keysFor(aud);
  const iat = Math.floor(nowMs / 1000);
  const claims: Omit<AccessTokenClaims, 'iat' | 'exp' | 'aud' | 'iss' | 'sub'> = {
    project_id: subject.projectId,
    branch_id: subject.branchId,
    refresh_token_id: subject.refreshTokenId,
    role: 'authenticated',
    name: subject.displayName,
    email: subject.primaryEmail,
    email_verified: subject.primaryEmailVerified,
    selected_team_id: subject.selectedTeamId,
    signed_up_at: Math.floor(subject.signedUpAt / 1000),
    is_anonymous: subject.isAnonymous,
    is_restricted: subject.restrictedReason !== null,
    restricted_reason: subject.restrictedReason,
    requires_totp_mfa: subject.requiresTotpMfa,
  };
  return new SignJWT({ ...extraClaims, ...(claims as unknown as Record<string, unknown>) })
    .setProtectedHeader({ alg: 'ES256', kid: key!.kid })
    .setSubject(subject.userId)
    .setIssuer(issuerFor(baseUrl, subject.projectId, kind))
    .setAudience(aud)
    .setIssuedAt(iat)
    .setExpirationTime(iat + Math.max(1, Math.floor(ttlMs / 1000)))
    .sign(key!.privateKey);
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function decodeSegment(segment: string): Record<string, unknown> | null {
  if (!BASE64URL.test(segment)) return null;
  try {
    const value: unknown = parseJsonText(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** ES256 signature check on libuv's thread pool (node:crypto, raw r||s signature, RFC 7518 §3.4). */
function verifyEs256(data: string, publicKey: KeyObject, signature: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    cryptoVerify('sha256', Buffer.from(data), { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature, (error, ok) =>
      resolve(!error && ok),
    );
  });
}

/**
 * Verified payloads by token, per key ring: a signature is checked once per token, not per
 * request. At most 20,000 tokens per key ring, least recently used evicted first (lru-cache).
 */
const verifiedTokens = new WeakMap<KeyRing, LRUCache<string, Record<string, unknown>>>();
const MAX_VERIFIED_TOKENS = 20_000;

/**
 * Checks a token's format, ES256 signature (against its own project's keys) and claim shapes;
 * returns the payload. Results are remembered per token (bounded), because a client sends the
 * same access token with every request for its whole lifetime; time claims are not part of
 * this check and are tested on every call.
 */
async function verifiedPayload(keys: KeyRing, token: string, unparsable: () => KnownError): Promise<Record<string, unknown>> {
  let cache = verifiedTokens.get(keys);
  if (!cache) verifiedTokens.set(keys, (cache = new LRUCache({ max: MAX_VERIFIED_TOKENS })));
  const hit = cache.get(token);
  if (hit) return hit;
  const parts = token.split('.');
  if (parts.length !== 3) throw unparsable();
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeSegment(headerPart);
  const payload = decodeSegment(payloadPart);
  if (!header || !payload || !BASE64URL.test(signaturePart)) throw unparsable();
  if (header.alg !== 'ES256' || header.crit !== undefined || header.b64 !== undefined) throw unparsable();
  const aud = payload.aud;
  const kid = header.kid;
  if (typeof aud !== 'string' || typeof kid !== 'string' || aud.length > 300) throw unparsable();
  const key = keys.keysFor(aud).find((k) => k.kid === kid);
  if (!key) throw unparsable();
  const signature = Buffer.from(signaturePart, 'base64url');
  if (signature.length !== 64 || !(await verifyEs256(`${headerPart}.${payloadPart}`, key.publicKey, signature))) throw unparsable();
  for (const claim of ['iat', 'nbf', 'exp'] as const) {
    if (payload[claim] !== undefined && typeof payload[claim] !== 'number') throw unparsable();
  }
  if (typeof payload.sub !== 'string' || typeof payload.project_id !== 'string' || typeof payload.refresh_token_id !== 'string')
    throw unparsable();
  const projectAudience = [
    audienceFor(payload.project_id, 'default'),
    audienceFor(payload.project_id, 'restricted'),
    audienceFor(payload.project_id, 'anonymous'),
  ];
  if (!projectAudience.includes(aud)) throw unparsable();
  cache.set(token, payload);
  return payload;
}

/**
 * Verifies an access token's signature (against its own project's keys) and expiry.
 *
 * This is the per-request hot path, so it checks the compact JWS directly with node:crypto
 * instead of jose's `jwtVerify` (which goes through WebCrypto and costs about twice as much),
 * with the same rules as `jwtVerify(token, key, {algorithms: ['ES256'], audience})`: protected
 * header `alg` ES256 without `crit`, a valid signature by the key named by `kid` for the token's
 * audience, `iat`/`nbf`/`exp` numbers when present, `nbf` not in the future, `exp` after now.
 *
 * @throws KnownError UNPARSABLE_ACCESS_TOKEN (bad format, signature or claims) or
 *   ACCESS_TOKEN_EXPIRED `{expired_at_millis}`. The admin variants are raised instead when
 *   `admin` is set (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-request.tsx step 7).
 */
export async function verifyAccessToken(keys: KeyRing, token: string, nowMs: number, admin = false): Promise<AccessTokenClaims> {
  const unparsable = () => new KnownError(admin ? 'UNPARSABLE_ADMIN_ACCESS_TOKEN' : 'UNPARSABLE_ACCESS_TOKEN');
  const payload = await verifiedPayload(keys, token, unparsable);
  const now = Math.floor(nowMs / 1000);
  if (payload.nbf !== undefined && (payload.nbf as number) > now) throw unparsable();
  if (payload.exp !== undefined && (payload.exp as number) <= now) {
    throw new KnownError(admin ? 'ADMIN_ACCESS_TOKEN_EXPIRED' : 'ACCESS_TOKEN_EXPIRED', {
      expired_at_millis: (payload.exp as number) * 1000,
    });
  }
  return payload as unknown as AccessTokenClaims;
}

/** The public JWKS of a project: 2 keys, 4 with restricted, 6 with anonymous (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/tokens.tsx). */
export function projectJwks(keys: KeyRing, projectId: string, options: { includeRestricted: boolean; includeAnonymous: boolean }) {
  const kinds: AudienceKind[] = ['default'];
  if (options.includeRestricted || options.includeAnonymous) kinds.push('restricted');
  if (options.includeAnonymous) kinds.push('anonymous');
  return { keys: kinds.flatMap((kind) => keys.keysFor(audienceFor(projectId, kind)).map((k) => k.publicJwk)) };
}
