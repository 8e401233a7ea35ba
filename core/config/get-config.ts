import { defineOperation } from '../operations/define.ts';
import { loadConfigLayers, renderLayers } from './store.ts';

/**
 * `GET /internal/config` (admin): the rendered config (defaults ← project ← branch ←
 * environment) as `{ config_string }`. @see upstream `internal/config/route.tsx`
 */
export const getConfig = defineOperation({
  id: 'config.get',
  method: 'GET',
  path: '/internal/config',
  summary: 'Get the rendered configuration of the current project and branch.',
  access: ['admin'],
  input: {},
  errors: [],
  async run(ctx) {
    const layers = await ctx.transaction((tx) => loadConfigLayers(tx.db, ctx.auth.project.id, ctx.auth.branchId, ctx.now));
    return { config_string: JSON.stringify(renderLayers(layers)) };
  },
});
