import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { SuccessOutput } from '../operations/output.ts';
import { ClientParams } from './client-fields.ts';
import { deleteClientRow } from './queries.ts';

/** `DELETE /internal/oauth-clients/{client_id}` (admin): removes the client; its tokens stop working (the provider finds no client). */
export const deleteOauthClient = defineOperation({
  id: 'oauthClients.delete',
  method: 'DELETE',
  path: '/internal/oauth-clients/:client_id',
  summary: 'Delete an OAuth client of the project’s identity provider.',
  access: ['admin'],
  input: { params: ClientParams },
  errors: [],
  output: SuccessOutput,
  async run(ctx, { params }) {
    if (!(await deleteClientRow(ctx.db, ctx.auth.project.id, params.client_id)))
      throw new StatusError('not-found', 'OAuth client not found.');
  },
});
