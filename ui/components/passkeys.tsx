import { useContext, useState } from 'react';
import { useApp, usePasskeys, useProject } from '../../sdk/react.tsx';
import type { User } from '../../sdk/user.ts';
import { CapabilitiesContext, FormError, Success, useAction } from '../common.tsx';

/** Whether account settings offer passkeys: the project has them on and the server can do them. */
export function usePasskeysOffered(): boolean {
  const project = useProject();
  const can = useContext(CapabilitiesContext);
  return project.config.passkey_enabled && can.passkey;
}

/**
 * Account-settings passkeys: the user's passkeys (added, last used) with "Remove", and
 * "Add a passkey", which runs the browser's WebAuthn registration ceremony.
 */
export function PasskeySettings(props: { user: User }) {
  const app = useApp();
  const passkeys = usePasskeys();
  const [added, setAdded] = useState(false);
  const { busy, error, run } = useAction();
  return (
    <div>
      {passkeys.length === 0 ? <p className="gh-muted">You have no passkeys. A passkey lets you sign in with this device's screen lock or a security key instead of a password.</p> : (
        <ul className="gh-list" aria-label="Passkeys">
          {passkeys.map((p) => (
            <li key={p.id}>
              <span>Passkey <span className="gh-muted">· added {p.createdAt.toLocaleString()}{p.lastUsedAt ? ` · last used ${p.lastUsedAt.toLocaleString()}` : ' · never used'}</span></span>
              <button type="button" className="gh-btn gh-danger" disabled={busy} onClick={() => run(async () => { setAdded(false); await p.delete(); })}>Remove</button>
            </li>
          ))}
        </ul>
      )}
      {added ? <Success>Passkey added. You can now sign in with it.</Success> : null}
      <FormError error={error} />
      <button type="button" className="gh-btn" disabled={busy} onClick={() => run(async () => {
        setAdded(false);
        const r = await app.registerPasskey();
        if (r.status === 'error') throw r.error;
        setAdded(true);
      })}>{busy ? 'Waiting for your passkey…' : 'Add a passkey'}</button>
    </div>
  );
}
