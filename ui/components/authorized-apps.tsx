import { type ReactNode } from 'react';
import type { User } from '../../sdk/user.ts';
import { FormError, useAction, useLoadedList } from '../common.tsx';
import { useT } from '../i18n/index.tsx';
import type { SettingsSlotProps } from './account-settings-slots.tsx';

type App = Awaited<ReturnType<User['listAuthorizedApps']>>[number];

/**
 * Account settings' authorized apps: the third-party applications the user let into the account
 * through the project's identity provider (name, logo, granted scopes, date), each with a Revoke
 * button (its tokens stop working; the app must ask again). The section shows only when there is
 * at least one, so projects without the identity provider show no empty heading.
 */
export function AuthorizedAppsSettings(props: SettingsSlotProps): ReactNode {
  const t = useT();
  const [apps, reload] = useLoadedList<App>(() => props.user.listAuthorizedApps(), [props.user]);
  const { busy, error, run } = useAction();
  if (!apps || apps.length === 0) return null;
  const Section = props.Section;
  return (
    <Section title={t('settings.authorizedApps')}>
      <ul className="gh-list" aria-label={t('authorizedApps.list')}>
        {apps.map((app) => (
          <li key={app.clientId} data-testid="authorized-app">
            <span style={{ display: 'inline-flex', gap: '.5rem', alignItems: 'center' }}>
              {app.logoUri ? <img src={app.logoUri} alt="" width={24} height={24} /> : null}
              <span>
                {app.name}
                <span className="gh-muted">
                  {' · '}
                  {t('authorizedApps.since', { time: app.authorizedAt.toLocaleDateString(t.locale) })}
                </span>
                <br />
                <span className="gh-muted">{t('authorizedApps.scopes', { scopes: app.scopes.join(', ') })}</span>
              </span>
            </span>
            <button
              type="button"
              className="gh-btn gh-danger"
              disabled={busy}
              aria-label={t('authorizedApps.revokeName', { app: app.name })}
              onClick={() =>
                run(async () => {
                  await props.user.revokeAuthorizedApp(app.clientId);
                  reload();
                })
              }
            >
              {t('authorizedApps.revoke')}
            </button>
          </li>
        ))}
      </ul>
      <FormError error={error} />
    </Section>
  );
}
