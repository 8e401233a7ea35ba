import * as v from 'valibot';
import { defineOperation, reply } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { TextOutput } from '../operations/output.ts';
import { UuidSchema } from '../lib/schemas.ts';
import { findConnection } from './queries.ts';
import { serviceProviderMetadata } from './saml.ts';

/**
 * A SAML connection's SP metadata (SAML V2.0 Metadata): entity id, the ACS with the HTTP-POST
 * binding, and the connection's certificate for signing and encryption, as
 * `application/samlmetadata+xml`. Public: IdPs import it by URL.
 */
export const getSsoSpMetadata = defineOperation({
  id: 'sso.spMetadata',
  method: 'GET',
  path: '/auth/sso/saml/:connection_id/metadata',
  summary: "A SAML connection's service provider metadata (XML).",
  access: 'public',
  input: { params: v.strictObject({ connection_id: UuidSchema }) },
  errors: ['SSO_CONNECTION_NOT_FOUND'],
  output: TextOutput,
  async run(ctx, { params }) {
    const connection = await findConnection(ctx.db, params.connection_id);
    if (!connection || connection.type !== 'saml') throw new KnownError('SSO_CONNECTION_NOT_FOUND');
    return reply.text(serviceProviderMetadata(ctx.runtime, connection), { contentType: 'application/samlmetadata+xml; charset=utf-8' });
  },
});
