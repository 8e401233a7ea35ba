import { KnownError, redirectUrlNotWhitelisted } from '../errors/index.ts';
import type { OperationContext } from '../operations/define.ts';
import type { RequestAuth } from '../auth/request-auth.ts';
import { isRedirectUrlTrusted } from '../config/domains.ts';
import { redirectTrust, resolveOpenIdProvider } from '../auth-oauth/index.ts';
import type { SsoConnection } from './connection.ts';

/** The options every connection type shares, as create and update accept them. */
export interface CommonOptionsInput {
  display_name?: string | null | undefined;
  domains?: string[] | undefined;
  default_permissions?: string[] | null | undefined;
  attribute_mapping?: { email?: string | undefined; name?: string | undefined; groups?: string | undefined } | undefined;
  group_permissions?: Record<string, string[]> | null | undefined;
  mfa_policy?: 'trust_idp' | 'require_ours' | undefined;
  allow_idp_initiated?: boolean | undefined;
  idp_initiated_redirect_url?: string | null | undefined;
}

/**
 * Applies the shared options to a connection, checking that IdP-initiated sign-in has a trusted
 * place to send the browser to (the app starts an SP-initiated sign-in there).
 *
 * @throws KnownError REDIRECT_URL_NOT_WHITELISTED; SCHEMA_ERROR when IdP-initiated sign-in is on
 * without `idp_initiated_redirect_url`, or on an OpenID connection
 */
export function applyCommonOptions(ctx: OperationContext<RequestAuth>, c: SsoConnection, input: CommonOptionsInput): SsoConnection {
  const next: SsoConnection = { ...c };
  if (input.display_name !== undefined) next.displayName = input.display_name;
  if (input.domains !== undefined) next.domains = [...new Set(input.domains)];
  if (input.default_permissions !== undefined) next.defaultPermissions = input.default_permissions;
  if (input.attribute_mapping !== undefined) {
    const { email, name, groups } = input.attribute_mapping;
    next.attributeMapping = { ...(email ? { email } : {}), ...(name ? { name } : {}), ...(groups ? { groups } : {}) };
  }
  if (input.group_permissions !== undefined)
    next.groupPermissions =
      input.group_permissions === null
        ? null
        : Object.fromEntries(Object.entries(input.group_permissions).map(([group, ids]) => [group, [...new Set(ids)]]));
  if (input.mfa_policy !== undefined) next.mfaPolicy = input.mfa_policy;
  if (input.allow_idp_initiated !== undefined) next.allowIdpInitiated = input.allow_idp_initiated;
  if (input.idp_initiated_redirect_url !== undefined) next.idpInitiatedRedirectUrl = input.idp_initiated_redirect_url;
  const target = next.idpInitiatedRedirectUrl;
  if (target !== null && !isRedirectUrlTrusted(target, redirectTrust(ctx, ctx.auth.project))) throw redirectUrlNotWhitelisted(target);
  if (next.allowIdpInitiated && (next.type !== 'saml' || target === null))
    throw new KnownError('SCHEMA_ERROR', {
      message:
        'allow_idp_initiated needs a SAML connection and an idp_initiated_redirect_url (where the app starts an SP-initiated sign-in).',
    });
  return next;
}

/**
 * Checks an OpenID connection's issuer by discovering it (OpenID Connect Discovery 1.0 §4, through
 * the outbound guard), so a wrong or refused issuer fails when the connection is saved rather
 * than at the first sign-in. Network I/O: call outside transactions.
 *
 * @throws KnownError OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED, OAUTH_PROVIDER_URL_NOT_ALLOWED
 */
export async function checkIssuer(ctx: OperationContext, issuerUrl: string, clientId: string): Promise<void> {
  // Only the discovery is exercised here; the client secret is not sent anywhere.
  await resolveOpenIdProvider(ctx.runtime, { id: 'sso', enabled: true, type: 'standard', issuerUrl, clientId, clientSecret: 'unused' });
}
