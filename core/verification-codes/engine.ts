import { KnownError } from '../errors/index.ts';
import { sha256Hex } from '../lib/hash.ts';
import { secureRandomString, uuid } from '../lib/random.ts';
import type { OperationContext } from '../operations/define.ts';
import {
  claimCodeAttempt,
  deleteCodeById,
  findCodeByHash,
  findCodeById,
  insertVerificationCode,
  listActiveCodes,
  codeIssuedForEmailBy,
  markCodeUsed,
  markUserCodesUsed,
  type VerificationCodeRow,
} from './queries.ts';

/** Default code lifetime: 7 days, in ms (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/verification-code-handler.tsx). */
export const DEFAULT_CODE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Attempts allowed across all codes sharing `code.slice(6)` (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/otp/, https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/verification-code-handler.tsx). */
export const MAX_ATTEMPTS_PER_CODE = 20;

/**
 * What a code is for. Codes of one purpose are never accepted for another. Other domains may use
 * any other lowercase name (e.g. `team_invitation`); the union lists the known ones for editors.
 */
export type VerificationPurpose =
  | 'otp_sign_in'
  | 'email_verification'
  | 'password_reset'
  | 'team_invitation'
  | 'sign_in_invitation'
  | (string & {});

/** The JSON payload a code carries (must survive JSON round trip). */
export type VerificationData = Record<string, unknown>;

/** A stored code, as handed to callers. The code itself is never stored or returned. */
export interface VerificationCode<D extends VerificationData = VerificationData> {
  id: string;
  projectId: string;
  purpose: VerificationPurpose;
  subjectId: string | null;
  userId: string | null;
  email: string | null;
  data: D;
  attemptCount: number;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms. */
  expiresAt: number;
  /** Epoch ms, or null while unused. */
  usedAt: number | null;
}

/** Where a new code points and what it carries. */
export interface NewVerificationCode<D extends VerificationData> {
  projectId: string;
  purpose: VerificationPurpose;
  data: D;
  /** A purpose-specific id to list or revoke codes by (e.g. a team id for invitations). */
  subjectId?: string | null;
  userId?: string | null;
  /** The normalized email the code was sent to. */
  email?: string | null;
  /** Lifetime in ms (default 7 days). */
  expiresInMs?: number;
}

function toCode<D extends VerificationData>(row: VerificationCodeRow): VerificationCode<D> {
  return {
    id: row.id,
    projectId: row.project_id,
    purpose: row.purpose,
    subjectId: row.subject_id,
    userId: row.user_id,
    email: row.email,
    data: JSON.parse(row.data) as D,
    attemptCount: Number(row.attempt_count),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    usedAt: row.used_at === null ? null : Number(row.used_at),
  };
}

/**
 * Creates a single-use code: 45 lowercase Crockford-base32 characters (224 bits), stored only as
 * SHA-256 hashes of the code and of its nonce (`code.slice(6)`). Uses `ctx.db`, so it joins the
 * caller's transaction (write the email carrying it in the same transaction).
 *
 * @returns the plain `code` (give it to the user once), the row id and `expiresAt` (epoch ms).
 * @see upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/otp/, https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/verification-code-handler.tsx
 */
export async function createVerificationCode<D extends VerificationData>(
  ctx: OperationContext,
  input: NewVerificationCode<D>,
): Promise<{ code: string; id: string; expiresAt: number }> {
  const code = secureRandomString();
  const id = uuid();
  const expiresAt = ctx.now + (input.expiresInMs ?? DEFAULT_CODE_TTL_MS);
  await insertVerificationCode(ctx.db, {
    id,
    project_id: input.projectId,
    purpose: input.purpose,
    code_hash: sha256Hex(code),
    nonce_hash: sha256Hex(code.slice(6)),
    subject_id: input.subjectId ?? null,
    user_id: input.userId ?? null,
    email: input.email ?? null,
    data: JSON.stringify(input.data),
    attempt_count: 0,
    created_at: ctx.now,
    expires_at: expiresAt,
    used_at: null,
  });
  return { code, id, expiresAt };
}

/**
 * The OTP shown to a user (`code[0:6]` uppercased) and the nonce returned to the client
 * (`code[6:]`, 39 characters); the client later submits `otp + nonce` (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/otp/).
 */
export function splitOtp(code: string): { otp: string; nonce: string } {
  return { otp: code.slice(0, 6).toUpperCase(), nonce: code.slice(6) };
}

/** Options of {@link checkVerificationCode}. */
export interface CheckOptions {
  /** Attempts allowed before VERIFICATION_CODE_MAX_ATTEMPTS_REACHED (default {@link MAX_ATTEMPTS_PER_CODE}). */
  maxAttempts?: number;
}

/**
 * Counts one attempt against `code` and validates it, in the order of upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/otp/:
 * max attempts (20 across codes sharing `code.slice(6)`), not found, expired, used. The attempt is
 * counted first, in one conditional update (`claimCodeAttempt`), so concurrent guesses on one code
 * are evaluated at most `maxAttempts` times on any number of processes. Every attempt counter of
 * Gatehouse (OTP / magic link, MFA attempt codes, password reset, email verification, team
 * invitations, passkey challenges, unsubscribe links) is this one.
 * The input is lowercased. Call it outside a transaction so the attempt is kept when it fails.
 *
 * @throws KnownError VERIFICATION_CODE_MAX_ATTEMPTS_REACHED (400), VERIFICATION_CODE_NOT_FOUND (404),
 *   VERIFICATION_CODE_EXPIRED (400), VERIFICATION_CODE_ALREADY_USED (409)
 */
export async function checkVerificationCode<D extends VerificationData = VerificationData>(
  ctx: OperationContext,
  projectId: string,
  purpose: VerificationPurpose,
  rawCode: string,
  options: CheckOptions = {},
): Promise<VerificationCode<D>> {
  const code = rawCode.trim().toLowerCase();
  const nonceHash = sha256Hex(code.slice(6));
  // Counted before the code is compared, atomically: the attempt past the limit is never evaluated.
  const attempt = await claimCodeAttempt(ctx.db, projectId, purpose, nonceHash, options.maxAttempts ?? MAX_ATTEMPTS_PER_CODE);
  if (attempt === 'exhausted') throw new KnownError('VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
  const row = await findCodeByHash(ctx.db, projectId, purpose, sha256Hex(code));
  if (!row) throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
  if (Number(row.expires_at) <= ctx.now) throw new KnownError('VERIFICATION_CODE_EXPIRED');
  if (row.used_at !== null) throw new KnownError('VERIFICATION_CODE_ALREADY_USED');
  return toCode<D>(row);
}

/**
 * Checks `code` like {@link checkVerificationCode}, then in one transaction marks it used (exactly
 * once even under concurrent calls) and runs `apply` with the transaction's context, so the code
 * is consumed only if `apply` succeeds.
 *
 * @returns what `apply` returns.
 * @throws the errors of {@link checkVerificationCode}; VERIFICATION_CODE_ALREADY_USED when a
 *   concurrent call consumed it first; whatever `apply` throws (the code stays unused).
 */
export async function useVerificationCode<D extends VerificationData, T>(
  ctx: OperationContext,
  projectId: string,
  purpose: VerificationPurpose,
  rawCode: string,
  apply: (trx: OperationContext, code: VerificationCode<D>) => Promise<T>,
  options: CheckOptions = {},
): Promise<T> {
  const found = await checkVerificationCode<D>(ctx, projectId, purpose, rawCode, options);
  return ctx.transaction(async (trx) => {
    if (!(await markCodeUsed(trx.db, projectId, found.id, trx.now))) throw new KnownError('VERIFICATION_CODE_ALREADY_USED');
    return apply(trx, { ...found, usedAt: trx.now });
  });
}

/** Unused, unexpired codes of `purpose` (e.g. pending team invitations of a team), newest first. */
export async function listVerificationCodes<D extends VerificationData = VerificationData>(
  ctx: OperationContext,
  projectId: string,
  purpose: VerificationPurpose,
  filter: { subjectId?: string; userId?: string; email?: string } = {},
): Promise<VerificationCode<D>[]> {
  return (await listActiveCodes(ctx.db, projectId, purpose, ctx.now, filter)).map((row) => toCode<D>(row));
}

/**
 * Marks a code (found by {@link checkVerificationCode}) used, exactly once; call it inside the
 * transaction whose other writes should happen only with the code consumed.
 *
 * @throws KnownError VERIFICATION_CODE_ALREADY_USED when it was already used (e.g. concurrently).
 */
export async function consumeVerificationCode(ctx: OperationContext, code: VerificationCode): Promise<void> {
  if (!(await markCodeUsed(ctx.db, code.projectId, code.id, ctx.now))) throw new KnownError('VERIFICATION_CODE_ALREADY_USED');
}

/** One code by id (whatever its state), or null. */
export async function findVerificationCode<D extends VerificationData = VerificationData>(
  ctx: OperationContext,
  projectId: string,
  purpose: VerificationPurpose,
  id: string,
): Promise<VerificationCode<D> | null> {
  const row = await findCodeById(ctx.db, projectId, purpose, id);
  return row ? toCode<D>(row) : null;
}

/** Revokes (deletes) one code by id; true when it existed. */
export function revokeVerificationCode(
  ctx: OperationContext,
  projectId: string,
  purpose: VerificationPurpose,
  id: string,
): Promise<boolean> {
  return deleteCodeById(ctx.db, projectId, purpose, id);
}

/**
 * Invalidates every outstanding code of `purpose` issued for `userId` (marks them used, so a
 * later attempt answers VERIFICATION_CODE_ALREADY_USED). Used to retire older password-reset
 * links after a reset or a password change. Joins the caller's transaction.
 *
 * @returns how many codes were invalidated.
 */
export function revokeUserCodes(ctx: OperationContext, projectId: string, purpose: VerificationPurpose, userId: string): Promise<number> {
  return markUserCodesUsed(ctx.db, projectId, purpose, userId, ctx.now);
}

/** Whether a code of `purpose` (used or not) was ever sent to `email` at or before `at` (epoch ms). */
export function wasCodeSentTo(
  ctx: OperationContext,
  projectId: string,
  purpose: VerificationPurpose,
  email: string,
  at: number,
): Promise<boolean> {
  return codeIssuedForEmailBy(ctx.db, projectId, purpose, email, at);
}
