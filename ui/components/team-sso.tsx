import { useEffect, useState, type FormEvent } from 'react';
import type { Team, TeamSsoConnection } from '../../sdk/objects.ts';
import type { User } from '../../sdk/user.ts';
import { Field, FormError, useAction } from '../common.tsx';
import { useT } from '../i18n/index.tsx';

/**
 * A team's SSO connections in account settings, for a member with `$manage_sso` (nothing for
 * others): each connection's SP details for the IdP admin (ACS URL, entity id, metadata URL, or
 * the OpenID redirect URI), a SAML connection added from the IdP's metadata URL, and delete.
 */
export function TeamSso(props: { team: Team; user: User }) {
  const t = useT();
  const [allowed, setAllowed] = useState(false);
  const [connections, setConnections] = useState<TeamSsoConnection[] | null>(null);
  const [tick, setTick] = useState(0);
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const load = useAction();
  const { busy, error, run } = useAction();
  useEffect(() => {
    let stale = false;
    void load.run(async () => {
      if (!(await props.user.hasPermission(props.team, '$manage_sso'))) return;
      const list = await props.team.listSsoConnections();
      if (stale) return;
      setAllowed(true);
      setConnections(list);
    });
    return () => {
      stale = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.team.id, tick]);
  if (!allowed) return null;
  const add = async (e: FormEvent) => {
    e.preventDefault();
    const problem = /^https?:\/\/\S+$/i.test(url.trim()) ? null : t('teamSso.urlInvalid');
    setUrlError(problem);
    if (problem) return;
    await run(async () => {
      await props.team.createSamlConnection({ idpMetadataUrl: url.trim() });
      setUrl('');
      setTick((n) => n + 1);
    });
  };
  return (
    <section aria-label={t('teamSso.title')} data-testid={`team-sso-${props.team.id}`}>
      <h3>{t('teamSso.title')}</h3>
      <FormError error={load.error} />
      {connections && connections.length === 0 ? <p className="gh-muted">{t('teamSso.none')}</p> : null}
      {connections?.map((c) => (
        <div key={c.id} className="gh-team">
          <p>
            <strong>{c.displayName ?? (c.type === 'saml' ? 'SAML' : 'OpenID Connect')}</strong>
          </p>
          <dl>
            {(
              [
                [t('teamSso.acsUrl'), c.acsUrl],
                [t('teamSso.entityId'), c.spEntityId],
                [t('teamSso.metadataUrl'), c.spMetadataUrl],
                [t('teamSso.redirectUri'), c.redirectUri],
              ] as const
            ).map(([label, value]) =>
              value ? (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd>
                    <code>{value}</code>
                  </dd>
                </div>
              ) : null,
            )}
          </dl>
          <button
            type="button"
            className="gh-btn gh-danger"
            disabled={busy}
            onClick={() =>
              run(async () => {
                await props.team.deleteSsoConnection(c.id);
                setTick((n) => n + 1);
              })
            }
          >
            {t('teamSso.delete')}
          </button>
        </div>
      ))}
      <form onSubmit={add} noValidate aria-label={t('teamSso.addLabel')}>
        <Field label={t('teamSso.metadataInput')} type="url" name="idp-metadata-url" value={url} onChange={setUrl} error={urlError} />
        <button type="submit" className="gh-btn" disabled={busy}>
          {t('teamSso.add')}
        </button>
      </form>
      <FormError error={error} />
    </section>
  );
}
