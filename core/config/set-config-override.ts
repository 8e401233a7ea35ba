import * as v from 'valibot';
import { StatusError } from '../errors/index.ts';
import { defineOperation } from '../operations/define.ts';
import { assertLevelAccess, BranchConfigSourceSchema, OverrideLevelParamsSchema, parseOverrideString } from './override-input.ts';
import { saveConfigLevel } from './store.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Replaces one level's override with `config_string` (server: branch only; admin); the branch
 * level needs `source` (where the config came from, e.g. `{ "type": "pushed-from-unknown" }` from
 * `config push`). Bad keys or values are plain 400s.
 */
export const setConfigOverride = defineOperation({
  id: 'config.setOverride',
  method: 'PUT',
  path: '/internal/config/override/:level',
  summary: 'Replace the config override of one level.',
  access: ['server', 'admin'],
  input: {
    params: OverrideLevelParamsSchema,
    body: v.strictObject({ config_string: v.string(), source: v.optional(BranchConfigSourceSchema) }),
  },
  errors: [],
  output: SuccessOutput,
  async run(ctx, { params, body }) {
    assertLevelAccess(ctx.auth.accessType, params.level);
    const override = parseOverrideString(body.config_string, params.level);
    if (params.level === 'branch' && !body.source) throw new StatusError('bad-request', 'source is required for branch level config');
    await ctx.transaction((tx) =>
      saveConfigLevel(tx.db, {
        projectId: ctx.auth.project.id,
        branchId: ctx.auth.branchId,
        level: params.level,
        override,
        ...(params.level === 'branch' && body.source ? { source: body.source } : {}),
        now: ctx.now,
      }),
    );
    return { success: true };
  },
});
