import { isIP } from 'node:net';
import type { Runtime } from '../runtime.ts';

/** What a bot challenge came to (upstream `turnstileResultValues`): the value sign-up rules see. */
export const TURNSTILE_RESULTS = ['ok', 'invalid', 'error'] as const;
export type TurnstileResult = (typeof TURNSTILE_RESULTS)[number];

/**
 * The Turnstile `action` each flow renders its widget with and expects back (upstream
 * `turnstileActionValues`, plus Gatehouse's `sign_in_with_credential` for password sign-in).
 */
export const TURNSTILE_ACTIONS = [
  'sign_up_with_credential',
  'sign_in_with_credential',
  'send_magic_link_email',
  'oauth_authenticate',
] as const;
export type TurnstileAction = (typeof TURNSTILE_ACTIONS)[number];

/**
 * `error-codes` that say the server's own setup or Cloudflare failed, not the visitor: they count
 * as `error` (an outage), never `invalid`, so a mistyped secret key cannot lock every visitor out
 * through the visible-challenge retry. (Upstream counts every `success: false` as invalid.)
 */
const SERVER_SIDE_CODES = new Set(['missing-input-secret', 'invalid-input-secret', 'internal-error']);

export interface SiteverifyRequest {
  secretKey: string;
  token: string;
  /** The visitor's address; sent only when it is a whole IP address (not an IPv6 /64 prefix). */
  remoteIp: string | null;
  expectedAction: TurnstileAction;
  /** Whether the hostname Cloudflare reports for the solved challenge belongs to the project. */
  isAllowedHostname: (hostname: string) => boolean;
}

/** The verdict and, for the log, why (never the token or the secret). */
export interface SiteverifyVerdict {
  result: TurnstileResult;
  reason: string;
}

/**
 * Verifies a Turnstile token with Cloudflare's server-side validation API (POST
 * `application/x-www-form-urlencoded` `secret`, `response`, `remoteip` to siteverify; answer
 * `{success, error-codes, hostname, action, cdata, challenge_ts}`; developers.cloudflare.com
 * /turnstile/get-started/server-side-validation/). One attempt, no retry (as upstream: a token
 * is single use, and a retry could not tell a replay from a lost answer).
 *
 * - `ok`: `success: true`, and the `action` and `hostname` Cloudflare reports (when present) are
 *   the expected action and a hostname of the project;
 * - `invalid`: Cloudflare refused the token (expired, already used, forged) or the action or
 *   hostname do not match;
 * - `error`: no usable answer within `runtime.turnstile.timeoutMs` (default 3000 ms: network
 *   failure, timeout, non-2xx status, not the documented JSON) or an answer blaming the server's
 *   own secret key (`missing-input-secret`, `invalid-input-secret`) or Cloudflare (`internal-error`).
 *
 * Never throws. The endpoint is the operator's (`GATEHOUSE_TURNSTILE_VERIFY_URL`), never a project's.
 *
 * @see upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/turnstile.tsx `verifyTurnstileToken`
 */
export async function siteverify(runtime: Runtime, request: SiteverifyRequest): Promise<SiteverifyVerdict> {
  const form = new URLSearchParams({ secret: request.secretKey, response: request.token });
  if (request.remoteIp !== null && isIP(request.remoteIp) !== 0) form.set('remoteip', request.remoteIp);
  let answer: unknown;
  try {
    // A URLSearchParams body is sent as application/x-www-form-urlencoded (Fetch standard).
    const response = await fetch(runtime.turnstile.verifyUrl, {
      method: 'POST',
      body: form,
      redirect: 'error',
      signal: AbortSignal.timeout(runtime.turnstile.timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      return { result: 'error', reason: `siteverify answered HTTP ${response.status}` };
    }
    answer = await response.json();
  } catch (error) {
    const name = (error as { name?: string }).name;
    return {
      result: 'error',
      reason:
        name === 'TimeoutError'
          ? `siteverify did not answer within ${runtime.turnstile.timeoutMs} ms`
          : `siteverify unreachable (${name ?? 'error'})`,
    };
  }
  if (typeof answer !== 'object' || answer === null || typeof (answer as { success?: unknown }).success !== 'boolean') {
    return { result: 'error', reason: 'siteverify answer is not the documented JSON' };
  }
  const data = answer as { success: boolean; action?: unknown; hostname?: unknown; 'error-codes'?: unknown };
  if (!data.success) {
    const codes = Array.isArray(data['error-codes']) ? data['error-codes'].filter((c): c is string => typeof c === 'string') : [];
    if (codes.some((c) => SERVER_SIDE_CODES.has(c)))
      return { result: 'error', reason: `siteverify refused the server: ${codes.join(', ')}` };
    return { result: 'invalid', reason: `siteverify refused the token${codes.length ? `: ${codes.join(', ')}` : ''}` };
  }
  if (typeof data.hostname === 'string' && data.hostname !== '' && !request.isAllowedHostname(data.hostname)) {
    return { result: 'invalid', reason: "the challenge was solved on a hostname that is not the project's" };
  }
  if (typeof data.action === 'string' && data.action !== '' && data.action !== request.expectedAction) {
    return { result: 'invalid', reason: 'the challenge was solved for another action' };
  }
  return { result: 'ok', reason: 'verified' };
}
