import { defineOperation } from '../operations/define.ts';
import { loadConfigLayers, renderLayers } from './store.ts';
import * as v from 'valibot';

/**
 * Reads the rendered config (defaults ← project ← branch ← environment) (admin access). @see upstream `internal/config/route.tsx`
 */
export const getConfig = defineOperation({
  id: 'config.get',
  method: 'GET',
  path: '/internal/config',
  summary: 'Get the rendered configuration of the current project and branch.',
  access: ['admin'],
  input: {},
  errors: [],
  output: v.strictObject({ config_string: v.string() }),
  async run(ctx) {
    const layers = await ctx.transaction((tx) => loadConfigLayers(tx.db, ctx.auth.project.id, ctx.auth.branchId, ctx.now));
    return { config_string: JSON.stringify(renderLayers(layers)) };
  },
});
