import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { resetOverrideKeys } from './format.ts';
import { loadConfigLayers, saveConfigLevel } from './store.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Removes `keys` and everything below them from one level's override, so lower levels and
 * defaults show through (admin access; level `branch` or `environment`, as upstream).
 */
export const resetConfigOverrideKeys = defineOperation({
  id: 'config.resetOverrideKeys',
  method: 'POST',
  path: '/internal/config/override/:level/reset-keys',
  summary: 'Remove keys from the config override of one level.',
  access: ['admin'],
  input: {
    params: v.strictObject({ level: v.picklist(['branch', 'environment']) }),
    body: v.strictObject({ keys: v.array(v.string()) }),
  },
  errors: [],
  output: SuccessOutput,
  async run(ctx, { params, body }) {
    await ctx.transaction(async (tx) => {
      const layers = await loadConfigLayers(tx.db, ctx.auth.project.id, ctx.auth.branchId, ctx.now);
      await saveConfigLevel(tx.db, {
        projectId: ctx.auth.project.id,
        branchId: ctx.auth.branchId,
        level: params.level,
        override: resetOverrideKeys(layers[params.level], body.keys),
        now: ctx.now,
      });
    });
    return { success: true };
  },
});
