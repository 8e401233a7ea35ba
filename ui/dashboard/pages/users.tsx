import { useEffect, useState } from 'react';
import type { Page } from '../api.ts';
import type { AdminProject } from '../project.ts';
import { Async, Empty, Field, Form, Section, formatTime, useApi, useLoad, TableScroll } from '../kit.tsx';
import { Link, useRouter } from '../router.tsx';
import { Plus } from 'lucide';
import { Icon } from '../../icon.tsx';
import { DialogButton } from '../controls/dialog.tsx';
import { isValidEmail } from '../validate.ts';

/** A server-view user as `GET /users` returns it (the fields the dashboard shows). */
export interface WireUser {
  id: string;
  display_name: string | null;
  primary_email: string | null;
  primary_email_verified: boolean;
  signed_up_at_millis: number;
  last_active_at_millis?: number | null;
  is_anonymous?: boolean;
  has_password?: boolean;
  requires_totp_mfa?: boolean;
  profile_image_url?: string | null;
  client_metadata?: unknown;
  client_read_only_metadata?: unknown;
  server_metadata?: unknown;
  [key: string]: unknown;
}

/** Rows per page of the users table (the benchmark requests the same, scripts/bench/users-table-bench.ts). */
export const USERS_PAGE_SIZE = 25;

/** The query the users table sends: `GET /users?limit=&desc=&order_by=signed_up_at[&query=][&cursor=]`. */
export function usersQuery(options: { search: string; desc: boolean; cursor: string | null }): Record<string, string | number | boolean> {
  const q: Record<string, string | number | boolean> = { limit: USERS_PAGE_SIZE, order_by: 'signed_up_at', desc: options.desc };
  if (options.search.trim()) q.query = options.search.trim();
  if (options.cursor) q.cursor = options.cursor;
  return q;
}

/** Users table: search, sort by sign-up time, cursor pagination; and a create-user form. */
export function UsersPage(props: { project: AdminProject }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const { navigate } = useRouter();
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [desc, setDesc] = useState(true);
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  // Search as you type, debounced.
  useEffect(() => {
    const t = setTimeout(() => {
      setSearch(searchInput);
      setCursors([null]);
    }, 250);
    return () => clearTimeout(t);
  }, [searchInput]);
  const page = useLoad(
    (): Promise<Page<WireUser>> => admin('users.list', { query: usersQuery({ search, desc, cursor }) }),
    [props.project.id, search, desc, cursor],
  );
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const emailError = email && !isValidEmail(email.trim()) ? 'Please enter a valid email address.' : null;
  return (
    <>
      <div className="d-top">
        <h1>Users</h1>
      </div>
      <Section
        title="All users"
        actions={
          <DialogButton label="New user" title="Create a user" icon={<Icon icon={Plus} />}>
            {() => (
              <Form
                label="Create a user"
                submit="Create user"
                busyLabel="Creating…"
                success="User created"
                disabled={!!emailError}
                onSubmit={async () => {
                  if (!email.trim() && !displayName.trim()) throw new Error('Give at least an email or a display name.');
                  const body: Record<string, unknown> = {};
                  if (email.trim()) {
                    body.primary_email = email.trim();
                    body.primary_email_auth_enabled = true;
                    body.primary_email_verified = false;
                  }
                  if (displayName.trim()) body.display_name = displayName.trim();
                  if (password) body.password = password;
                  const user = await admin('users.create', { body });
                  navigate(`/projects/${props.project.id}/users/${user.id}`);
                }}
              >
                <Field label="Email" name="new-user-email" type="email" value={email} onChange={setEmail} error={emailError} />
                <Field label="Display name" name="new-user-name" value={displayName} onChange={setDisplayName} />
                <Field
                  label="Password (optional)"
                  name="new-user-password"
                  type="password"
                  autoComplete="new-password"
                  value={password}
                  onChange={setPassword}
                />
              </Form>
            )}
          </DialogButton>
        }
      >
        <div className="d-row" style={{ marginBottom: 8 }}>
          <input
            type="search"
            aria-label="Search users"
            placeholder="Search by email, name or ID"
            value={searchInput}
            onInput={(e) => setSearchInput((e.target as HTMLInputElement).value)}
            style={{ flex: 1, minWidth: 200 }}
          />
        </div>
        <Async state={page} label="Loading users…">
          {(p) =>
            p.items.length === 0 ? (
              <Empty>
                {search
                  ? `No users match "${search}".`
                  : 'No users yet. Use New user to create one, or connect your app so people can sign up.'}
              </Empty>
            ) : (
              <TableScroll label="Users">
                <table className="d-table" aria-label="Users">
                  <thead>
                    <tr>
                      <th>User</th>
                      <th>Email</th>
                      <th aria-sort={desc ? 'descending' : 'ascending'}>
                        <button
                          type="button"
                          onClick={() => {
                            setDesc(!desc);
                            setCursors([null]);
                          }}
                        >
                          Signed up {desc ? '↓' : '↑'}
                        </button>
                      </th>
                      <th>Last active</th>
                    </tr>
                  </thead>
                  <tbody>
                    {p.items.map((u) => (
                      <tr key={u.id}>
                        <td>
                          <Link to={`/projects/${props.project.id}/users/${u.id}`}>{u.display_name || '(no name)'}</Link>
                          {u.is_anonymous ? <span className="d-badge">anonymous</span> : null}
                        </td>
                        <td>
                          {u.primary_email ?? '—'}
                          {u.primary_email && !u.primary_email_verified ? <span className="d-muted"> (unverified)</span> : null}
                        </td>
                        <td>{formatTime(u.signed_up_at_millis)}</td>
                        <td>{formatTime(u.last_active_at_millis ?? null)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )
          }
        </Async>
        <div className="d-row" style={{ marginTop: 8 }}>
          <button type="button" className="d-btn" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>
            Previous
          </button>
          <span className="d-muted">Page {cursors.length}</span>
          <button
            type="button"
            className="d-btn"
            disabled={!page.data?.pagination?.next_cursor}
            onClick={() => setCursors([...cursors, page.data!.pagination!.next_cursor!])}
          >
            Next
          </button>
        </div>
      </Section>
    </>
  );
}
