export { setDataVaultValue } from './set-data-vault-value.ts';
export { getDataVaultValue } from './get-data-vault-value.ts';
export { listDataVaultStores } from './list-data-vault-stores.ts';
