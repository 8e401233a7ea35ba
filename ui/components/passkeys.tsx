import { useContext, useState } from 'react';
import { useApp, usePasskeys, useProject } from '../../sdk/react.tsx';
import type { User } from '../../sdk/user.ts';
import { CapabilitiesContext, FormError, Success, useAction } from '../common.tsx';
import { useT } from '../i18n/index.tsx';

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
  const t = useT();
  const time = (d: Date) => d.toLocaleString(t.locale);
  return (
    <div>
      {passkeys.length === 0 ? <p className="gh-muted">{t('passkeys.none')}</p> : (
        <ul className="gh-list" aria-label={t('passkeys.list')}>
          {passkeys.map((p) => (
            <li key={p.id}>
              <span>{t('passkeys.item')} <span className="gh-muted">· {t('passkeys.added', { time: time(p.createdAt) })} · {p.lastUsedAt ? t('passkeys.lastUsed', { time: time(p.lastUsedAt) }) : t('passkeys.neverUsed')}</span></span>
              <button type="button" className="gh-btn gh-danger" disabled={busy} onClick={() => run(async () => { setAdded(false); await p.delete(); })}>{t('passkeys.remove')}</button>
            </li>
          ))}
        </ul>
      )}
      {added ? <Success>{t('passkeys.addedDone')}</Success> : null}
      <FormError error={error} />
      <button type="button" className="gh-btn" disabled={busy} onClick={() => run(async () => {
        setAdded(false);
        const r = await app.registerPasskey();
        if (r.status === 'error') throw r.error;
        setAdded(true);
      })}>{busy ? t('passkeys.waiting') : t('passkeys.add')}</button>
    </div>
  );
}
