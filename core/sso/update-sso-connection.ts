import { KnownError } from '../errors/index.ts';
import { defineOperation } from '../operations/define.ts';
import { sealSecret, toRow, type SsoConnection } from './connection.ts';
import { updateConnectionRow } from './queries.ts';
import {
  ClientConnectionUpdateSchema,
  ConnectionParamsSchema,
  ServerConnectionUpdateSchema,
  SsoConnectionOutput,
  type ConnectionUpdate,
} from './schemas.ts';
import { getManagedConnection, MANAGE_ERRORS } from './access.ts';
import { hasIdpSource, readIdpSource } from './idp-source.ts';
import { applyCommonOptions, checkIssuer } from './options.ts';
import { toWireConnection } from './wire.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';

/**
 * Updates an SSO connection: the shared options, and for SAML a new IdP source (metadata XML or
 * URL, fetched again, or the three facts: the SP key pair stays), for OpenID a new issuer, client
 * id or client secret (the issuer is discovered again). Fields of the other type are refused.
 * Server and admin access; a client needs `$manage_sso` in the team and may not set `domains`.
 * Emits `sso_connection.updated`.
 */
export const updateSsoConnection = defineOperation({
  id: 'sso.updateConnection',
  method: 'PATCH',
  path: '/teams/:team_id/sso-connections/:connection_id',
  summary: "Update one of a team's SSO connections.",
  access: ['client', 'server', 'admin'],
  input: { params: ConnectionParamsSchema, body: ServerConnectionUpdateSchema },
  clientInput: { params: ConnectionParamsSchema, body: ClientConnectionUpdateSchema },
  errors: [
    ...MANAGE_ERRORS,
    'SSO_CONNECTION_NOT_FOUND',
    'SSO_IDP_METADATA_INVALID',
    'OAUTH_PROVIDER_URL_NOT_ALLOWED',
    'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED',
    'REDIRECT_URL_NOT_WHITELISTED',
  ],
  output: SsoConnectionOutput,
  async run(ctx, { params, body }) {
    const b = body as ConnectionUpdate;
    const before = await getManagedConnection(ctx, params.team_id, params.connection_id);
    const oidcFields = [b.issuer_url, b.client_id, b.client_secret].some((x) => x !== undefined);
    if ((before.type === 'saml' && oidcFields) || (before.type === 'oidc' && hasIdpSource(b)))
      throw new KnownError('SCHEMA_ERROR', { message: `These fields do not apply to a ${before.type} connection.` });
    let next: SsoConnection = applyCommonOptions(ctx, before, b);
    if (before.type === 'saml' && hasIdpSource(b)) {
      const idp = await readIdpSource(ctx.runtime, b);
      next = {
        ...next,
        idpEntityId: idp.entityId,
        idpSsoUrl: idp.ssoUrl,
        idpCertificates: idp.certificates,
        idpMetadataUrl: idp.metadataUrl,
        metadataFetchedAt: idp.metadataUrl === null ? null : ctx.now,
      };
    }
    if (before.type === 'oidc' && oidcFields) {
      next = { ...next, issuerUrl: b.issuer_url ?? next.issuerUrl, clientId: b.client_id ?? next.clientId };
      if (b.client_secret !== undefined)
        next.clientSecretSealed = sealSecret(ctx.runtime, before.projectId, before.id, 'client_secret', b.client_secret);
      await checkIssuer(ctx, next.issuerUrl ?? '', next.clientId ?? '');
    }
    next.updatedAt = ctx.now;
    await ctx.transaction(async (tx) => {
      await getManagedConnection(tx, params.team_id, params.connection_id);
      const { id: _id, project_id: _p, team_id: _t, created_at: _c, ...changes } = toRow(next);
      await updateConnectionRow(tx.db, before.id, changes);
      await emitWebhookEvent(tx, before.projectId, 'sso_connection.updated', toWireConnection(ctx.runtime, next));
    });
    return toWireConnection(ctx.runtime, next);
  },
});
