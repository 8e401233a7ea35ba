import { defineOperation } from '../operations/define.ts';
import { loadConfigLayers } from './store.ts';
import * as v from 'valibot';
import { BranchConfigSourceSchema } from './override-input.ts';

/** Reads where the branch's config was pushed from (admin access). */
export const getConfigSource = defineOperation({
  id: 'config.getSource',
  method: 'GET',
  path: '/internal/config/source',
  summary: 'Get where the branch config was pushed from.',
  access: ['admin'],
  input: {},
  errors: [],
  output: v.strictObject({ source: BranchConfigSourceSchema }),
  async run(ctx) {
    const layers = await ctx.transaction((tx) => loadConfigLayers(tx.db, ctx.auth.project.id, ctx.auth.branchId, ctx.now));
    return { source: layers.source };
  },
});
