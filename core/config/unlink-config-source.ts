import { defineOperation } from '../operations/define.ts';
import { saveConfigSource } from './store.ts';
import { SuccessOutput } from '../operations/output.ts';

/** Marks the branch config `unlinked`, editable in the dashboard again (admin access). */
export const unlinkConfigSource = defineOperation({
  id: 'config.unlinkSource',
  method: 'DELETE',
  path: '/internal/config/source',
  summary: 'Unlink the pushed config source.',
  access: ['admin'],
  input: {},
  errors: [],
  output: SuccessOutput,
  async run(ctx) {
    await ctx.transaction((tx) => saveConfigSource(tx.db, ctx.auth.project.id, ctx.auth.branchId, { type: 'unlinked' }, ctx.now));
    return { success: true };
  },
});
