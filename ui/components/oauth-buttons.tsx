import { useContext } from 'react';
import { useApp, useProject } from '../../sdk/react.tsx';
import { CapabilitiesContext, FormError, useAction } from '../common.tsx';
import { ProviderIcon, providerName } from './oauth-icons.tsx';
import { useT } from '../i18n/index.tsx';
import { GatehouseKnownError, type Result } from '../../sdk/errors.ts';
import type { BotChallenge } from '../../sdk/client-app.ts';
import { useBotChallenge } from './bot-challenge.tsx';

/**
 * One button per OAuth provider the project enabled, each starting the SDK's `signInWithOAuth`
 * (PKCE verifier in a cookie keyed by state, then `GET /auth/oauth/authorize/{provider}`).
 * Renders nothing when no provider is enabled or the server has no OAuth routes. With a Turnstile
 * site key the start goes through the bot challenge flow (bot-challenge.tsx).
 */
export function OAuthButtonGroup(props: { type: 'sign-in' | 'sign-up' }) {
  const app = useApp();
  const project = useProject();
  const { busy, error, run } = useAction();
  const t = useT();
  const challenge = useBotChallenge('oauth_authenticate');
  const providers = useContext(CapabilitiesContext).oauth ? (project.config.enabled_oauth_providers ?? []) : [];
  const start = (id: string) =>
    run(async () => {
      const r = await challenge.run(async (botChallenge?: BotChallenge): Promise<Result<null>> => {
        try {
          await app.signInWithOAuth(id, botChallenge ? { botChallenge } : {});
          return { status: 'ok', data: null };
        } catch (e) {
          if (e instanceof GatehouseKnownError) return { status: 'error', error: e };
          throw e;
        }
      });
      if (r.status === 'error') throw r.error;
    });
  if (providers.length === 0) return null;
  return (
    <div className="gh-row" role="group" aria-label={t('oauth.group')} style={{ flexDirection: 'column', alignItems: 'stretch' }}>
      {providers.map((p) => {
        const name = providerName(p.id, p.display_name);
        return (
          <button
            key={p.id}
            type="button"
            className="gh-btn"
            disabled={busy}
            data-provider={p.id}
            style={{ display: 'flex', gap: '.5rem', alignItems: 'center', justifyContent: 'center' }}
            onClick={() => start(p.id)}
          >
            <ProviderIcon id={p.id} name={name} />
            <span>{t(props.type === 'sign-up' ? 'oauth.signUp' : 'oauth.signIn', { provider: name })}</span>
          </button>
        );
      })}
      {challenge.element}
      <FormError error={error} />
    </div>
  );
}
