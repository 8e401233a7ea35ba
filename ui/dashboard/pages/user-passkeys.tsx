import type { Page } from '../api.ts';
import { Async, ConfirmButton, Empty, Section, formatTime, useLoad } from '../kit.tsx';
import type { useApi } from '../kit.tsx';

type Caller = ReturnType<ReturnType<typeof useApi>['admin']>;
interface WirePasskey {
  id: string;
  credential_id: string;
  device_type: string;
  backed_up: boolean;
  transports: string[];
  created_at_millis: number;
  last_used_at_millis: number | null;
}

/**
 * A user's passkeys (`GET /passkeys?user_id=`, a Gatehouse extension), each removable
 * (`DELETE /passkeys/{user_id}/{id}`); removing the last one turns `passkey_auth_enabled` off.
 */
export function UserPasskeys(props: { user: { id: string; passkey_auth_enabled?: boolean }; admin: Caller; onChanged: () => void }) {
  const keys = useLoad(
    (): Promise<Page<WirePasskey>> => props.admin('passkeys.list', { query: { user_id: props.user.id } }),
    [props.user.id],
  );
  return (
    <Section title="Passkeys">
      <Async state={keys} label="Loading passkeys…">
        {(p) =>
          p.items.length === 0 ? (
            <Empty>No passkeys.</Empty>
          ) : (
            <table className="d-table" aria-label="Passkeys">
              <thead>
                <tr>
                  <th>Passkey</th>
                  <th>Kind</th>
                  <th>Added</th>
                  <th>Last used</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {p.items.map((k) => (
                  <tr key={k.id}>
                    <td>
                      <code>{k.credential_id.slice(0, 12)}…</code>
                    </td>
                    <td>
                      {k.device_type === 'multiDevice' ? 'synced' : 'device-bound'}
                      {k.transports.length ? ` · ${k.transports.join(', ')}` : ''}
                    </td>
                    <td>{formatTime(k.created_at_millis)}</td>
                    <td>{formatTime(k.last_used_at_millis)}</td>
                    <td>
                      <ConfirmButton
                        label="Remove"
                        question="Remove this passkey? The user can no longer sign in with it."
                        onConfirm={async () => {
                          await props.admin('passkeys.delete', { params: { user_id: props.user.id, passkey_id: k.id }, body: {} });
                          keys.reload();
                          props.onChanged();
                        }}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Async>
    </Section>
  );
}
