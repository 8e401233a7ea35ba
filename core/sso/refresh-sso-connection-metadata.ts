import { KnownError } from '../errors/index.ts';
import { defineOperation } from '../operations/define.ts';
import { ConnectionParamsSchema, SsoConnectionOutput } from './schemas.ts';
import { getManagedConnection, MANAGE_ERRORS } from './access.ts';
import { refreshIdpMetadata } from './metadata-refresh.ts';
import { toWireConnection } from './wire.ts';

/**
 * Fetches a SAML connection's `idp_metadata_url` again now (the background refresh does so every
 * 24 hours) and stores the entity id, SSO URL and signing certificates it lists: how a
 * certificate rollover is picked up at once. Emits `sso_connection.updated` when something
 * changed. A connection without a metadata URL answers SCHEMA_ERROR. Server and admin access; a
 * client needs `$manage_sso` in the team.
 */
export const refreshSsoConnectionMetadata = defineOperation({
  id: 'sso.refreshConnectionMetadata',
  method: 'POST',
  path: '/teams/:team_id/sso-connections/:connection_id/refresh-metadata',
  summary: "Fetch a SAML connection's IdP metadata URL again now.",
  access: ['client', 'server', 'admin'],
  input: { params: ConnectionParamsSchema },
  ignoresBody: true,
  errors: [...MANAGE_ERRORS, 'SSO_CONNECTION_NOT_FOUND', 'SSO_IDP_METADATA_INVALID', 'OAUTH_PROVIDER_URL_NOT_ALLOWED'],
  output: SsoConnectionOutput,
  async run(ctx, { params }) {
    const connection = await getManagedConnection(ctx, params.team_id, params.connection_id);
    if (connection.idpMetadataUrl === null)
      throw new KnownError('SCHEMA_ERROR', { message: 'This connection was not created from an idp_metadata_url.' });
    return toWireConnection(ctx.runtime, await refreshIdpMetadata(ctx, connection));
  },
});
