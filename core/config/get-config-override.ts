import { defineOperation } from '../operations/define.ts';
import { assertLevelAccess, OverrideLevelParamsSchema } from './override-input.ts';
import { loadConfigLayers } from './store.ts';

/**
 * `GET /internal/config/override/{level}` (server: branch only; admin): one level's override as
 * stored, `{ config_string }`. @see upstream `internal/config/override/[level]/route.tsx`
 */
export const getConfigOverride = defineOperation({
  id: 'config.getOverride',
  method: 'GET',
  path: '/internal/config/override/:level',
  summary: 'Get the config override of one level.',
  access: ['server', 'admin'],
  input: { params: OverrideLevelParamsSchema },
  errors: [],
  async run(ctx, { params }) {
    assertLevelAccess(ctx.auth.accessType, params.level);
    const layers = await ctx.transaction((tx) => loadConfigLayers(tx.db, ctx.auth.project.id, ctx.auth.branchId, ctx.now));
    return { config_string: JSON.stringify(layers[params.level]) };
  },
});
