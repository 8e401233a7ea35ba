import { defineOperation } from '../operations/define.ts';
import { uuid } from '../lib/random.ts';
import { generateServiceProviderKeys, sealSecret, type SsoConnection } from './connection.ts';
import { insertConnection } from './queries.ts';
import { toRow } from './connection.ts';
import {
  ClientConnectionCreateSchema,
  ServerConnectionCreateSchema,
  SsoConnectionOutput,
  TeamConnectionsParamsSchema,
  type ConnectionCreate,
} from './schemas.ts';
import { MANAGE_ERRORS, requireManageSso } from './access.ts';
import { readIdpSource } from './idp-source.ts';
import { applyCommonOptions, checkIssuer } from './options.ts';
import { toWireConnection } from './wire.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';

/**
 * Creates an SSO connection for a team (issue 32): SAML from IdP metadata (XML or URL, fetched
 * through the outbound guard) or from its entity id, SSO URL and certificate, with a fresh SP key
 * pair and certificate; or OpenID Connect from an issuer (discovered now, through the outbound
 * guard), client id and client secret (sealed). Answers the connection with what the IdP needs:
 * `sp_entity_id`, `acs_url`, `sp_metadata_url` (SAML) or `redirect_uri` (OpenID).
 * Server and admin access; a client needs `$manage_sso` in the team and may not set `domains`.
 * Emits `sso_connection.created`.
 *
 * @see docs/sso.md
 */
export const createSsoConnection = defineOperation({
  id: 'sso.createConnection',
  method: 'POST',
  path: '/teams/:team_id/sso-connections',
  summary: 'Create an SSO connection (SAML or OpenID Connect) for a team.',
  access: ['client', 'server', 'admin'],
  input: { params: TeamConnectionsParamsSchema, body: ServerConnectionCreateSchema },
  clientInput: { params: TeamConnectionsParamsSchema, body: ClientConnectionCreateSchema },
  errors: [
    ...MANAGE_ERRORS,
    'SSO_IDP_METADATA_INVALID',
    'OAUTH_PROVIDER_URL_NOT_ALLOWED',
    'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED',
    'REDIRECT_URL_NOT_WHITELISTED',
  ],
  created: true,
  output: SsoConnectionOutput,
  async run(ctx, { params, body }) {
    const b = body as ConnectionCreate;
    const projectId = ctx.auth.project.id;
    await requireManageSso(ctx, params.team_id);
    const id = uuid();
    let connection: SsoConnection = {
      id,
      projectId,
      teamId: params.team_id,
      type: b.type,
      displayName: null,
      domains: [],
      defaultPermissions: null,
      attributeMapping: {},
      allowIdpInitiated: false,
      idpInitiatedRedirectUrl: null,
      idpEntityId: null,
      idpSsoUrl: null,
      idpCertificates: [],
      idpMetadataUrl: null,
      spCertificate: null,
      spPrivateKeySealed: null,
      issuerUrl: null,
      clientId: null,
      clientSecretSealed: null,
      mfaPolicy: 'trust_idp',
      groupPermissions: null,
      metadataFetchedAt: null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    connection = applyCommonOptions(ctx, connection, b);
    if (b.type === 'saml') {
      const idp = await readIdpSource(ctx.runtime, b);
      const keys = await generateServiceProviderKeys(`Gatehouse SSO ${id}`);
      connection = {
        ...connection,
        idpEntityId: idp.entityId,
        idpSsoUrl: idp.ssoUrl,
        idpCertificates: idp.certificates,
        idpMetadataUrl: idp.metadataUrl,
        metadataFetchedAt: idp.metadataUrl === null ? null : ctx.now,
        spCertificate: keys.certificate,
        spPrivateKeySealed: sealSecret(ctx.runtime, projectId, id, 'sp_private_key', keys.privateKey),
      };
    } else {
      await checkIssuer(ctx, b.issuer_url, b.client_id);
      connection = {
        ...connection,
        issuerUrl: b.issuer_url,
        clientId: b.client_id,
        clientSecretSealed: sealSecret(ctx.runtime, projectId, id, 'client_secret', b.client_secret),
      };
    }
    await ctx.transaction(async (tx) => {
      await requireManageSso(tx, params.team_id);
      await insertConnection(tx.db, toRow(connection));
      await emitWebhookEvent(tx, projectId, 'sso_connection.created', toWireConnection(ctx.runtime, connection));
    });
    return toWireConnection(ctx.runtime, connection);
  },
});
