import { isIP } from 'node:net';
import { isPrivateAddress } from '../lib/outbound.ts';

/**
 * Checks a webhook endpoint URL: absolute http(s), no credentials, and in production mode no
 * literal private address or `localhost` (names are checked again at connect time, see
 * `deliver.ts`, so DNS cannot smuggle one in).
 *
 * @returns an error message naming the problem, or null when the URL is acceptable.
 */
export function webhookUrlProblem(raw: string, environment: 'development' | 'production' | 'test'): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'url must use http or https';
  if (url.username || url.password) return 'url must not contain credentials';
  if (environment !== 'production') return null;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'url must not point at this machine in production mode';
  if (isIP(host) && isPrivateAddress(host)) return 'url must not point at a loopback, link-local or private address in production mode';
  return null;
}
