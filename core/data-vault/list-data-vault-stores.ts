import { defineOperation } from '../operations/define.ts';
import { configuredStores } from './stores.ts';
import { countDataVaultEntries } from './queries.ts';
import * as v from 'valibot';

/**
 * Lists each configured store's id, display name and number of entries. Never values or key hashes
 * (admin access; a Gatehouse extension for the dashboard).
 */
export const listDataVaultStores = defineOperation({
  id: 'dataVault.listStores',
  method: 'GET',
  path: '/internal/data-vault/stores',
  summary: 'List data vault stores with their entry counts.',
  access: ['admin'],
  input: {},
  errors: [],
  output: v.strictObject({
    items: v.array(v.strictObject({ id: v.string(), display_name: v.string(), entry_count: v.pipe(v.number(), v.integer()) })),
  }),
  async run(ctx) {
    const stores = await configuredStores(ctx);
    const counts = await countDataVaultEntries(ctx.db, ctx.auth.project.id);
    return { items: Object.entries(stores).map(([id, s]) => ({ id, display_name: s.displayName, entry_count: counts.get(id) ?? 0 })) };
  },
});
