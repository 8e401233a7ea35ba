import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { sealVaultValue } from './sealing.ts';
import { requireStore } from './stores.ts';
import { upsertDataVaultEntry } from './queries.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Stores `encrypted_value` (already encrypted by the SDK with a key only the app knows) under
 * `hashed_key` (the SDK's PBKDF2 hash of the key) in store `id`, sealed again at rest (server,
 * admin access). The store must be configured in `dataVault.stores.<id>`.
 *
 * @see upstream `data-vault/stores/[id]/set/route.tsx`, upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts
 */
export const setDataVaultValue = defineOperation({
  id: 'dataVault.set',
  method: 'POST',
  path: '/data-vault/stores/:id/set',
  summary: 'Store an encrypted value in a data vault store.',
  access: ['server', 'admin'],
  input: {
    params: v.strictObject({ id: v.string() }),
    body: v.strictObject({ hashed_key: v.pipe(v.string(), v.nonEmpty()), encrypted_value: v.string() }),
  },
  errors: ['DATA_VAULT_STORE_DOES_NOT_EXIST'],
  output: SuccessOutput,
  async run(ctx, { params, body }) {
    await requireStore(ctx, params.id);
    const sealed = sealVaultValue(ctx.runtime, ctx.auth.project.id, params.id, body.hashed_key, body.encrypted_value);
    await upsertDataVaultEntry(ctx.db, {
      projectId: ctx.auth.project.id,
      storeId: params.id,
      hashedKey: body.hashed_key,
      ...sealed,
      now: ctx.now,
    });
    return { success: true };
  },
});
