import { defineOperation } from '../operations/define.ts';
import { assertLevelAccess, OverrideLevelParamsSchema } from './override-input.ts';
import { loadConfigLayers } from './store.ts';
import * as v from 'valibot';

/**
 * Reads one level's override as stored (server: branch only; admin). @see upstream `internal/config/override/[level]/route.tsx`
 */
export const getConfigOverride = defineOperation({
  id: 'config.getOverride',
  method: 'GET',
  path: '/internal/config/override/:level',
  summary: 'Get the config override of one level.',
  access: ['server', 'admin'],
  input: { params: OverrideLevelParamsSchema },
  errors: [],
  output: v.strictObject({ config_string: v.string() }),
  async run(ctx, { params }) {
    assertLevelAccess(ctx.auth.accessType, params.level);
    const layers = await ctx.transaction((tx) => loadConfigLayers(tx.db, ctx.auth.project.id, ctx.auth.branchId, ctx.now));
    return { config_string: JSON.stringify(layers[params.level]) };
  },
});
