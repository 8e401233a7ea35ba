import { ProviderIcon, providerName } from '../../components/oauth-icons.tsx';
import { Async, ConfirmButton, Empty, Section, TableScroll, useLoad, type useApi } from '../kit.tsx';

type Caller = ReturnType<ReturnType<typeof useApi>['admin']>;

/**
 * The provider accounts linked to a user (`GET /oauth-providers?user_id=`): provider with its
 * mark, the account's email and id at the provider, whether it signs in and whether it lends
 * access tokens (connected accounts); an admin can unlink one (`DELETE /oauth-providers/…`).
 */
export function UserOAuthLinks(props: { user: { id: string }; admin: Caller }) {
  const links = useLoad(() => props.admin('authOauth.listOAuthProviders', { query: { user_id: props.user.id } }), [props.user.id]);
  return (
    <Section
      title="Linked sign-in accounts"
      description="Accounts at OAuth providers (Google, GitHub…) this user signs in or connects with."
    >
      <Async state={links} label="Loading linked accounts…">
        {(p) =>
          p.items.length === 0 ? (
            <Empty>No linked provider accounts: this user signs in with email, password or passkeys only.</Empty>
          ) : (
            <TableScroll label="Linked provider accounts">
              <table className="d-table" aria-label="Linked provider accounts">
                <thead>
                  <tr>
                    <th>Provider</th>
                    <th>Account</th>
                    <th>Sign-in</th>
                    <th>Connected account</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {p.items.map((l) => (
                    <tr key={l.id}>
                      <td>
                        <span className="d-row" style={{ gap: 6 }}>
                          <ProviderIcon id={l.provider_config_id} />
                          {providerName(l.provider_config_id)}
                        </span>
                      </td>
                      <td>
                        {l.email ?? '—'}
                        {'account_id' in l && l.account_id ? (
                          <>
                            {' '}
                            <small className="d-muted">({l.account_id})</small>
                          </>
                        ) : null}
                      </td>
                      <td>{l.allow_sign_in ? 'yes' : 'no'}</td>
                      <td>{l.allow_connected_accounts ? 'yes' : 'no'}</td>
                      <td>
                        <ConfirmButton
                          label="Unlink"
                          question={`Unlink this ${providerName(l.provider_config_id)} account? The user can no longer sign in with it.`}
                          onConfirm={async () => {
                            await props.admin('authOauth.deleteOAuthProvider', {
                              params: { user_id: props.user.id, provider_id: l.id },
                              body: {},
                            });
                            links.reload();
                          }}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )
        }
      </Async>
    </Section>
  );
}
