import { defineOperation } from '../operations/define.ts';
import { listOutput } from '../operations/output.ts';
import { MAX_CLIENTS } from './client-fields.ts';
import { listClientRows } from './queries.ts';
import { OAuthClientOutput, toOAuthClientJson } from './wire.ts';

/** `GET /internal/oauth-clients` (admin): the project's clients, oldest first, without secrets. */
export const listOauthClients = defineOperation({
  id: 'oauthClients.list',
  method: 'GET',
  path: '/internal/oauth-clients',
  summary: 'List the OAuth clients of the project’s identity provider.',
  access: ['admin'],
  input: {},
  errors: [],
  output: listOutput(OAuthClientOutput),
  async run(ctx) {
    const rows = await listClientRows(ctx.db, ctx.auth.project.id, MAX_CLIENTS);
    return { items: rows.map(toOAuthClientJson), is_paginated: false as const };
  },
});
