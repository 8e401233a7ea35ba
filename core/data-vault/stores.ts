import { KnownError } from '../errors/index.ts';
import { loadConfigLayers, renderLayers } from '../config/index.ts';
import type { OperationContext } from '../operations/define.ts';
import type { RequestAuth } from '../auth/request-auth.ts';

/** The data-vault stores configured for the caller's project and branch (`dataVault.stores`), by id. */
export async function configuredStores(ctx: OperationContext<RequestAuth>): Promise<Record<string, { displayName: string }>> {
  const layers = await ctx.transaction((tx) => loadConfigLayers(tx.db, ctx.auth.project.id, ctx.auth.branchId, ctx.now));
  return renderLayers(layers).dataVault.stores;
}

/** @throws KnownError DATA_VAULT_STORE_DOES_NOT_EXIST when `storeId` is not configured. */
export async function requireStore(ctx: OperationContext<RequestAuth>, storeId: string): Promise<void> {
  const stores = await configuredStores(ctx);
  if (!Object.hasOwn(stores, storeId)) throw new KnownError('DATA_VAULT_STORE_DOES_NOT_EXIST', { store_id: storeId });
}
