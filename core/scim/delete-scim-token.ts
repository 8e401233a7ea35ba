import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { success } from '../lib/schemas.ts';
import { SuccessOutput } from '../operations/output.ts';
import { MANAGE_SSO_ERRORS, requireCanManageSso } from '../team-domains/index.ts';
import { deleteScimTokenRow } from './queries.ts';

/** `DELETE /teams/{team_id}/scim-tokens/{token_id}`: revokes a SCIM token at once (SCIM_TOKEN_NOT_FOUND). */
export const deleteScimToken = defineOperation({
  id: 'scim.deleteToken',
  method: 'DELETE',
  path: '/teams/:team_id/scim-tokens/:token_id',
  summary: 'Revoke a SCIM provisioning token.',
  access: ['client', 'server', 'admin'],
  input: { params: v.strictObject({ team_id: v.pipe(v.string(), v.maxLength(100)), token_id: v.pipe(v.string(), v.maxLength(100)) }) },
  ignoresBody: true,
  errors: [...MANAGE_SSO_ERRORS, 'SCIM_TOKEN_NOT_FOUND'],
  output: SuccessOutput,
  async run(ctx, { params }) {
    await ctx.transaction(async (tx) => {
      await requireCanManageSso(tx, params.team_id);
      if (!(await deleteScimTokenRow(tx.db, ctx.auth.project.id, params.team_id, params.token_id))) {
        throw new KnownError('SCIM_TOKEN_NOT_FOUND', { token_id: params.token_id });
      }
    });
    return success;
  },
});
