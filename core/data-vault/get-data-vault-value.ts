import * as v from 'valibot';
import { KnownError } from '../errors/index.ts';
import { defineOperation } from '../operations/define.ts';
import { openVaultValue } from './sealing.ts';
import { requireStore } from './stores.ts';
import { findDataVaultEntry } from './queries.ts';
import { NullableString } from '../operations/output.ts';

/**
 * Reads the value stored under `hashed_key` in store `id`, as the SDK encrypted it (server, admin
 * access). A value whose seal does not open (e.g. the server secret changed) counts as missing,
 * and the SDK then returns null.
 *
 * @see upstream `data-vault/stores/[id]/get/route.tsx`, upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts
 */
export const getDataVaultValue = defineOperation({
  id: 'dataVault.get',
  method: 'POST',
  path: '/data-vault/stores/:id/get',
  summary: 'Read an encrypted value from a data vault store.',
  access: ['server', 'admin'],
  input: {
    params: v.strictObject({ id: v.string() }),
    body: v.strictObject({ hashed_key: v.pipe(v.string(), v.nonEmpty()) }),
  },
  errors: ['DATA_VAULT_STORE_DOES_NOT_EXIST', 'DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST'],
  output: v.strictObject({ encrypted_value: NullableString }),
  async run(ctx, { params, body }) {
    await requireStore(ctx, params.id);
    const entry = await findDataVaultEntry(ctx.db, ctx.auth.project.id, params.id, body.hashed_key);
    const value = entry && openVaultValue(ctx.runtime, ctx.auth.project.id, params.id, body.hashed_key, entry);
    if (value === null)
      throw new KnownError('DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST', { store_id: params.id, hashed_key: body.hashed_key });
    return { encrypted_value: value };
  },
});
