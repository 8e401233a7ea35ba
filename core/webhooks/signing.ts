import { createHmac, randomBytes } from 'node:crypto';

/**
 * A new endpoint signing secret in the Standard Webhooks / Svix format: `whsec_` followed by 24
 * random bytes in base64 (standardwebhooks.com "Signature scheme": secrets are 24–64 bytes).
 */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The `webhook-signature` value for one message: `v1,<base64 HMAC-SHA256>` over
 * `<id>.<timestamp>.<body>`, keyed with the base64-decoded part of the secret after `whsec_`
 * (Standard Webhooks specification; the same scheme Svix uses, so Svix receivers verify it).
 *
 * @param timestampSeconds Unix time in seconds, as sent in `webhook-timestamp`.
 */
export function signPayload(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The signature headers of one delivery: Standard Webhooks' `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`, and the same values as `svix-*` (receivers written for Stack Auth verify
 * with the `svix` package, which reads those). The outbound client adds the media type and its
 * user agent (deliver.ts).
 */
export function deliveryHeaders(secret: string, id: string, timestampSeconds: number, body: string): Record<string, string> {
  const signature = signPayload(secret, id, timestampSeconds, body);
  const ts = String(timestampSeconds);
  return {
    'webhook-id': id,
    'webhook-timestamp': ts,
    'webhook-signature': signature,
    'svix-id': id,
    'svix-timestamp': ts,
    'svix-signature': signature,
  };
}
