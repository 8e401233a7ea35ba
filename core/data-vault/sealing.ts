import { open, seal } from '../lib/secret-box.ts';
import type { Runtime } from '../runtime.ts';

/**
 * Gatehouse's own layer of data-vault encryption (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts): the SDK's already-encrypted value is
 * sealed again with AES-256-GCM under a key derived (HKDF-SHA-256, `runtime.deriveKey`) from the
 * server secret per project, store and key id, with the entry's identity as associated data, so
 * a sealed value copied to another project, store or key fails to open.
 */
export const CURRENT_DATA_VAULT_KEY_ID = 'v1';

function keyFor(runtime: Runtime, keyId: string, projectId: string, storeId: string): Buffer {
  return runtime.deriveKey(`data-vault/${keyId}/${projectId}/${storeId}`);
}

const aadOf = (projectId: string, storeId: string, hashedKey: string) => `${projectId}\n${storeId}\n${hashedKey}`;

export function sealVaultValue(
  runtime: Runtime,
  projectId: string,
  storeId: string,
  hashedKey: string,
  value: string,
): { sealedValue: string; keyId: string } {
  const keyId = CURRENT_DATA_VAULT_KEY_ID;
  return { sealedValue: seal(keyFor(runtime, keyId, projectId, storeId), value, aadOf(projectId, storeId, hashedKey)), keyId };
}

/** @returns the SDK's encrypted value, or null when the sealed value does not open. */
export function openVaultValue(
  runtime: Runtime,
  projectId: string,
  storeId: string,
  hashedKey: string,
  entry: { sealedValue: string; keyId: string },
): string | null {
  return open(keyFor(runtime, entry.keyId, projectId, storeId), entry.sealedValue, aadOf(projectId, storeId, hashedKey));
}
