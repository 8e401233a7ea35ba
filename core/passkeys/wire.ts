import type { PasskeyRow } from './queries.ts';

/**
 * A passkey as the Gatehouse-extension routes show it: no key material, only what a user or admin
 * needs to recognise and remove it. Times are epoch ms.
 */
export function toWirePasskey(row: PasskeyRow) {
  return {
    id: row.id,
    user_id: row.user_id,
    credential_id: row.credential_id,
    device_type: row.device_type,
    backed_up: row.backed_up === 1,
    transports: JSON.parse(row.transports) as string[],
    created_at_millis: Number(row.created_at),
    last_used_at_millis: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}
