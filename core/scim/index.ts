/**
 * SCIM 2.0 provisioning per team (RFC 7643, RFC 7644; issue 32 item 4): the team's bearer tokens
 * (registry operations) and the SCIM endpoints themselves, which speak SCIM's own media type and
 * error format and are answered by {@link answerScim} (server-bin/api/scim.ts routes
 * `/api/v1/scim/v2/…` to it).
 */
export { createScimToken } from './create-scim-token.ts';
export { listScimTokens } from './list-scim-tokens.ts';
export { deleteScimToken } from './delete-scim-token.ts';
export { answerScim, SCIM_ENDPOINTS } from './handler.ts';
export { SCIM_MEDIA_TYPE, SCHEMA as SCIM_SCHEMA } from './protocol.ts';
