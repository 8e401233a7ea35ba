import type { AdminProject } from '../project.ts';
import { Async, Empty, Section, TableScroll, useApi, useLoad, CopyValue } from '../kit.tsx';

interface WireStore {
  id: string;
  display_name: string;
  entry_count: number;
}

/**
 * Data vault stores (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts): each store's id, name and number of entries. Values are never
 * shown (the server only holds what the app encrypted, sealed again). Stores are created in the
 * configuration (`dataVault.stores.<id>`).
 */
export function DataVaultPage(props: { project: AdminProject }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const stores = useLoad((): Promise<{ items: WireStore[] }> => admin('dataVault.listStores'), [props.project.id]);
  return (
    <>
      <div className="d-top">
        <h1>Data vault</h1>
      </div>
      <Section
        title="Stores"
        description={
          <>
            Add a store in Configuration with a key like <code>"dataVault.stores.my-store": {'{ "displayName": "My store" }'}</code>. Values
            are encrypted by your app and never shown here.
          </>
        }
      >
        <Async state={stores} label="Loading stores…">
          {(page) =>
            page.items.length === 0 ? (
              <Empty>No data vault stores yet.</Empty>
            ) : (
              <TableScroll label="Stores">
                <table className="d-table" aria-label="Stores">
                  <thead>
                    <tr>
                      <th>Id</th>
                      <th>Name</th>
                      <th>Entries</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((s) => (
                      <tr key={s.id}>
                        <td>
                          <CopyValue value={s.id} label={`id of ${s.display_name}`} />
                        </td>
                        <td>{s.display_name}</td>
                        <td>{s.entry_count}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )
          }
        </Async>
      </Section>
    </>
  );
}
