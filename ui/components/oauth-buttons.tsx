import { useContext } from 'react';
import { useApp, useProject } from '../../sdk/react.tsx';
import { CapabilitiesContext, FormError, useAction } from '../common.tsx';
import { ProviderIcon, providerName } from './oauth-icons.tsx';
import { useT } from '../i18n/index.tsx';

/**
 * One button per OAuth provider the project enabled, each starting the SDK's `signInWithOAuth`
 * (PKCE verifier in a cookie keyed by state, then `GET /auth/oauth/authorize/{provider}`).
 * Renders nothing when no provider is enabled or the server has no OAuth routes.
 */
export function OAuthButtonGroup(props: { type: 'sign-in' | 'sign-up' }) {
  const app = useApp();
  const project = useProject();
  const { busy, error, run } = useAction();
  const t = useT();
  const providers = useContext(CapabilitiesContext).oauth ? project.config.enabled_oauth_providers ?? [] : [];
  if (providers.length === 0) return null;
  return (
    <div className="gh-row" role="group" aria-label={t('oauth.group')} style={{ flexDirection: 'column', alignItems: 'stretch' }}>
      {providers.map((p) => {
        const name = providerName(p.id, p.display_name);
        return (
          <button key={p.id} type="button" className="gh-btn" disabled={busy} data-provider={p.id} style={{ display: 'flex', gap: '.5rem', alignItems: 'center', justifyContent: 'center' }} onClick={() => run(() => app.signInWithOAuth(p.id))}>
            <ProviderIcon id={p.id} name={name} />
            <span>{t(props.type === 'sign-up' ? 'oauth.signUp' : 'oauth.signIn', { provider: name })}</span>
          </button>
        );
      })}
      <FormError error={error} />
    </div>
  );
}
