import { domainToASCII } from 'node:url';
import { KnownError } from '../errors/index.ts';
import { API_PREFIX } from '../operations/api-path.ts';
import { loadConfigLayers, renderLayers } from '../config/index.ts';
import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { findVerifiedDomain } from './queries.ts';

/**
 * The SSO start URL for `email`: `<base>/api/v1/auth/sso/authorize?email=<email>` (the SSO
 * sign-in route; it finds the team's connection by the address's domain).
 */
export function ssoStartUrl(baseUrl: string, email: string): string {
  return `${baseUrl.replace(/\/$/, '')}${API_PREFIX}/auth/sso/authorize?email=${encodeURIComponent(email)}`;
}

/** The ASCII (punycode), lowercase domain of an address, or null when it has none. */
function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 0 || at === email.length - 1) return null;
  const domain = domainToASCII(email.slice(at + 1).toLowerCase());
  return domain === '' ? null : domain;
}

/**
 * Refuses a password, OTP or OAuth sign-in or sign-up for `email` with SSO_REQUIRED
 * `{domain, sso_url}` when the address's domain is verified by a team of the project with
 * `sso_enforced`, and the project (branch) enables `auth.sso.enforceForVerifiedDomains`.
 * Other methods (SSO itself, passkeys, anonymous users) are not refused. Registered as the
 * `signInAttempt` hook (core/hooks.ts), so every sign-in path reaches it through one call
 * (core/sign-up-rules `checkSignInAttempt`). One indexed lookup; the config is read only for an
 * enforced domain.
 *
 * @see docs/sso.md "Verified domains"
 */
export async function assertSsoNotRequired(
  ctx: OperationContext,
  project: Project,
  attempt: { email: string | null; method: string },
): Promise<void> {
  if (attempt.email === null || !['password', 'otp', 'oauth'].includes(attempt.method)) return;
  const domain = emailDomain(attempt.email);
  if (domain === null) return;
  const holder = await findVerifiedDomain(ctx.db, project.id, domain);
  if (!holder?.sso_enforced) return;
  const branchId = ctx.auth?.branchId ?? 'main';
  const auth = renderLayers(await loadConfigLayers(ctx.db, project.id, branchId, ctx.now)).auth;
  if (auth?.sso?.enforceForVerifiedDomains !== true) return;
  throw new KnownError('SSO_REQUIRED', { domain, sso_url: ssoStartUrl(ctx.runtime.baseUrl, attempt.email) });
}
