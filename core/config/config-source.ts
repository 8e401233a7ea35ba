import { defineOperation } from '../operations/define.ts';
import { loadConfigLayers, saveConfigSource } from './store.ts';

/** `GET /internal/config/source` (admin): where the branch's config was pushed from → `{ source }`. */
export const getConfigSource = defineOperation({
  id: 'config.getSource',
  method: 'GET',
  path: '/internal/config/source',
  summary: 'Get where the branch config was pushed from.',
  access: ['admin'],
  input: {},
  errors: [],
  async run(ctx) {
    const layers = await ctx.transaction((tx) => loadConfigLayers(tx.db, ctx.auth.project.id, ctx.auth.branchId, ctx.now));
    return { source: layers.source };
  },
});

/** `DELETE /internal/config/source` (admin): marks the branch config `unlinked` (editable in the dashboard again). */
export const unlinkConfigSource = defineOperation({
  id: 'config.unlinkSource',
  method: 'DELETE',
  path: '/internal/config/source',
  summary: 'Unlink the pushed config source.',
  access: ['admin'],
  input: {},
  errors: [],
  async run(ctx) {
    await ctx.transaction((tx) => saveConfigSource(tx.db, ctx.auth.project.id, ctx.auth.branchId, { type: 'unlinked' }, ctx.now));
    return { success: true };
  },
});
