import { defineOperation } from '../operations/define.ts';
import { layerOrigins, loadConfigLayers } from './store.ts';
import * as v from 'valibot';
import { BranchConfigSourceSchema } from './override-input.ts';

/**
 * Tells (admin access; a Gatehouse extension for the dashboard), for each leaf
 * path of the rendered config that an override sets, the level it came from (`project`,
 * `branch`, `environment`; paths absent here are defaults), and the branch's config source.
 */
export const getConfigOrigins = defineOperation({
  id: 'config.getOrigins',
  method: 'GET',
  path: '/internal/config/origins',
  summary: 'Get which override level set each configured value.',
  access: ['admin'],
  input: {},
  errors: [],
  output: v.strictObject({
    origins: v.record(v.string(), v.picklist(['default', 'project', 'branch', 'environment'])),
    source: BranchConfigSourceSchema,
  }),
  async run(ctx) {
    const layers = await ctx.transaction((tx) => loadConfigLayers(tx.db, ctx.auth.project.id, ctx.auth.branchId, ctx.now));
    return { origins: layerOrigins(layers), source: layers.source };
  },
});
