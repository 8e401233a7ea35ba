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
 * When the page was opened at an IP address (WebAuthn L3 §5.1.3 refuses an IP literal as the
 * RP ID, and browsers say only "This is an invalid domain"): the host, and for a loopback
 * address the same page on `localhost`, which works. Null on a domain name.
 */
export function passkeyAddressProblem(
  href: string | undefined = (globalThis as { location?: { href?: string } }).location?.href,
): { host: string; localhostUrl: string | null } | null {
  if (!href) return null;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  const host = url.hostname;
  const ipv6 = host.startsWith('[');
  if (!ipv6 && !/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return null;
  const loopback = ipv6 ? host === '[::1]' : host.startsWith('127.');
  if (!loopback) return { host, localhostUrl: null };
  url.hostname = 'localhost';
  return { host, localhostUrl: url.toString() };
}

/** Says why passkeys cannot work at an IP address, with the localhost link when there is one. */
export function PasskeyAddressNote(props: { problem: { host: string; localhostUrl: string | null } }) {
  const t = useT();
  const { host, localhostUrl } = props.problem;
  return (
    <p className="gh-muted" data-testid="passkey-ip-note">
      {localhostUrl
        ? t.rich('passkeys.ipLoopback', { host, url: <a href={localhostUrl}>{localhostUrl}</a> })
        : t('passkeys.ipAddress', { host })}
    </p>
  );
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
  const addressProblem = passkeyAddressProblem();
  return (
    <div>
      {passkeys.length === 0 ? (
        <p className="gh-muted">{t('passkeys.none')}</p>
      ) : (
        <ul className="gh-list" aria-label={t('passkeys.list')}>
          {passkeys.map((p) => (
            <li key={p.id}>
              <span>
                {t('passkeys.item')}{' '}
                <span className="gh-muted">
                  · {t('passkeys.added', { time: time(p.createdAt) })} ·{' '}
                  {p.lastUsedAt ? t('passkeys.lastUsed', { time: time(p.lastUsedAt) }) : t('passkeys.neverUsed')}
                </span>
              </span>
              <button
                type="button"
                className="gh-btn gh-danger"
                disabled={busy}
                onClick={() =>
                  run(async () => {
                    setAdded(false);
                    await p.delete();
                  })
                }
              >
                {t('passkeys.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {added ? <Success>{t('passkeys.addedDone')}</Success> : null}
      <FormError error={error} />
      {addressProblem ? <PasskeyAddressNote problem={addressProblem} /> : null}
      <button
        type="button"
        className="gh-btn"
        disabled={busy || !!addressProblem}
        onClick={() =>
          run(async () => {
            setAdded(false);
            const r = await app.registerPasskey();
            if (r.status === 'error') throw r.error;
            setAdded(true);
          })
        }
      >
        {busy ? t('passkeys.waiting') : t('passkeys.add')}
      </button>
    </div>
  );
}
