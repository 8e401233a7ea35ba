import type { Runtime } from '../../core/runtime.ts';
import { takeIntervalToken, takeRateLimit, type Project } from '../../core/index.ts';

/** RFC 8628 §3.2's polling interval in seconds, announced in the device authorization answer. */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const TOKEN_PATHS = new Set(['/token', '/token/introspection', '/token/revocation']);

/** A refusal in RFC 6749 §5.2's JSON shape. */
export interface ThrottleRefusal {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function refusal(status: number, error: string, description: string, retryAfter: number | null): ThrottleRefusal {
  return {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...(retryAfter !== null ? { 'retry-after': String(retryAfter) } : {}),
    },
    body: Buffer.from(JSON.stringify({ error, error_description: description })),
  };
}

/** The form fields of a token request body, or an empty set when it is not a readable form (the provider refuses it then). */
function formFields(body: Buffer | undefined): URLSearchParams {
  if (!body || body.length === 0 || body.length > 64 * 1024) return new URLSearchParams();
  try {
    return new URLSearchParams(body.toString('utf8'));
  } catch {
    return new URLSearchParams();
  }
}

/**
 * Throttling of the identity provider's endpoints (core/throttle buckets in the database, so the
 * limits hold across processes), checked before the provider sees the request:
 * - `/token`, `/token/introspection`, `/token/revocation`: rule `oauth_token_per_address`;
 * - `/device/auth` and user-code submissions (`POST /device`): rule `oauth_device_per_address`
 *   (RFC 8628 §5.1, user codes must not be guessable by trying);
 * over the limit answers 429 with `Retry-After` and an RFC 6749 error body
 * (`too_many_requests`);
 * - a device-code token request within the polling interval of the previous one for the same
 *   device code answers RFC 8628 §3.5's `slow_down` (400).
 * Null when the request may go on.
 */
export async function throttleProviderRequest(
  runtime: Runtime,
  project: Project,
  request: { method: string; rest: string; body: Buffer | undefined; clientAddress: string | null },
): Promise<ThrottleRefusal | null> {
  if (request.method !== 'POST') return null;
  const scope = { runtime, projectId: project.id, rateLimits: project.config.rateLimits };
  const { rest } = request;
  const rule = TOKEN_PATHS.has(rest)
    ? 'oauth_token_per_address'
    : rest === '/device/auth' || rest === '/device'
      ? 'oauth_device_per_address'
      : null;
  if (!rule) return null;
  const wait = await takeRateLimit(scope, rule, request.clientAddress);
  if (wait !== null) return refusal(429, 'too_many_requests', 'Too many requests. Please wait before trying again.', wait);
  if (rest !== '/token') return null;
  const fields = formFields(request.body);
  const deviceCode = fields.get('device_code');
  if (fields.get('grant_type') !== DEVICE_CODE_GRANT || !deviceCode) return null;
  const tooSoon = await takeIntervalToken(scope, 'device_code_poll', deviceCode, DEVICE_POLL_INTERVAL_SECONDS);
  return tooSoon === null
    ? null
    : refusal(400, 'slow_down', `Poll at most every ${DEVICE_POLL_INTERVAL_SECONDS} seconds; wait longer between requests.`, null);
}
