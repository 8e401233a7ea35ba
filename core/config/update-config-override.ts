import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { applyOverridePatch } from './format.ts';
import { assertLevelAccess, OverrideLevelParamsSchema, parseOverrideString } from './override-input.ts';
import { loadConfigLayers, saveConfigLevel } from './store.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Merges the partial override `config_override_string` (dotted keys; `null` removes a key) into
 * one level's override (server: branch only; admin). Bad JSON, keys or values are plain 400s.
 */
export const updateConfigOverride = defineOperation({
  id: 'config.updateOverride',
  method: 'PATCH',
  path: '/internal/config/override/:level',
  summary: 'Merge a partial override into the config override of one level.',
  access: ['server', 'admin'],
  input: { params: OverrideLevelParamsSchema, body: v.strictObject({ config_override_string: v.string() }) },
  errors: [],
  output: SuccessOutput,
  async run(ctx, { params, body }) {
    assertLevelAccess(ctx.auth.accessType, params.level);
    const patch = parseOverrideString(body.config_override_string, params.level);
    await ctx.transaction(async (tx) => {
      const layers = await loadConfigLayers(tx.db, ctx.auth.project.id, ctx.auth.branchId, ctx.now);
      await saveConfigLevel(tx.db, {
        projectId: ctx.auth.project.id,
        branchId: ctx.auth.branchId,
        level: params.level,
        override: applyOverridePatch(layers[params.level], patch),
        now: ctx.now,
      });
    });
    return { success: true };
  },
});
