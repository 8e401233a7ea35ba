import { useContext } from 'react';
import { useApp, useProject } from '../../sdk/react.tsx';
import type { User } from '../../sdk/user.ts';
import { CapabilitiesContext, FormError, useAction, useLoadedList } from '../common.tsx';
import { ProviderIcon, providerName } from './oauth-icons.tsx';
import { useT } from '../i18n/index.tsx';

type Link = Awaited<ReturnType<User['listOAuthProviders']>>[number];

/**
 * Account settings' linked accounts: the user's OAuth provider accounts (`GET /oauth-providers`)
 * with a Disconnect button each (`DELETE /oauth-providers/me/{id}`), and a Connect button for each
 * enabled provider not linked yet (the SDK's OAuth flow with `type=link`).
 */
export function LinkedAccounts(props: { user: User }) {
  const app = useApp();
  const project = useProject();
  const can = useContext(CapabilitiesContext);
  const [links, reload] = useLoadedList<Link>(() => props.user.listOAuthProviders(), [props.user]);
  const { busy, error, run } = useAction();
  const t = useT();
  const enabled = can.oauth ? (project.config.enabled_oauth_providers ?? []) : [];
  if (links === null)
    return (
      <p className="gh-muted" role="status">
        {t('linked.loading')}
      </p>
    );
  const unlinked = enabled.filter((p) => !links.some((l) => l.id === p.id));
  const here = typeof window === 'undefined' ? undefined : window.location.pathname + window.location.search;
  return (
    <div>
      {links.length === 0 ? (
        <p className="gh-muted">{t('linked.none')}</p>
      ) : (
        <ul className="gh-list" aria-label={t('settings.linkedAccounts')}>
          {links.map((l) => {
            const name = providerName(l.id, enabled.find((p) => p.id === l.id)?.display_name);
            return (
              <li key={l.linkId}>
                <span style={{ display: 'inline-flex', gap: '.5rem', alignItems: 'center' }}>
                  <ProviderIcon id={l.id} name={name} />
                  <span>
                    {name}
                    {l.email ? <span className="gh-muted"> · {l.email}</span> : null}
                  </span>
                </span>
                <button
                  type="button"
                  className="gh-btn gh-danger"
                  disabled={busy}
                  aria-label={t('linked.disconnectName', { provider: name })}
                  onClick={() =>
                    run(async () => {
                      await props.user.unlinkOAuthProvider(l.linkId);
                      reload();
                    })
                  }
                >
                  {t('linked.disconnect')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {unlinked.length > 0 ? (
        <div className="gh-row" role="group" aria-label={t('linked.connectGroup')}>
          {unlinked.map((p) => {
            const name = providerName(p.id, p.display_name);
            return (
              <button
                key={p.id}
                type="button"
                className="gh-btn"
                disabled={busy}
                style={{ display: 'inline-flex', gap: '.5rem', alignItems: 'center' }}
                onClick={() => run(() => app.signInWithOAuth(p.id, { type: 'link', ...(here ? { returnTo: here } : {}) }))}
              >
                <ProviderIcon id={p.id} name={name} />
                <span>{t('linked.connect', { provider: name })}</span>
              </button>
            );
          })}
        </div>
      ) : null}
      <FormError error={error} />
    </div>
  );
}
