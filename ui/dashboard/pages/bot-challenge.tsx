import { useState } from 'react';
import { Async, ConfirmButton, Field, Form, Section, useApi, useLoad } from '../kit.tsx';

/**
 * The project's Cloudflare Turnstile keys (`GET/PUT/DELETE /internal/bot-challenge/turnstile`):
 * the site key is shown, the secret key only as a hint; saving without a new secret keeps the stored
 * one. Off until both are set (docs/security.md "Bot challenges").
 */
export function BotChallengeSection(props: { projectId: string; onChanged?: () => void }) {
  const admin = useApi().admin(props.projectId);
  const current = useLoad(() => admin('botChallenge.getTurnstile'), [props.projectId]);
  const [siteKey, setSiteKey] = useState<string | null>(null);
  const [secretKey, setSecretKey] = useState('');
  const changed = () => {
    current.reload();
    props.onChanged?.();
  };
  return (
    <Section
      title="Bot challenge (Cloudflare Turnstile)"
      description="With both keys set, sign-up, sign-in, magic links and OAuth ask for a Turnstile challenge, and sign-up rules can use turnstileResult (ok, invalid or error). Create a widget in the Cloudflare dashboard (Turnstile) and paste its keys here."
    >
      <Async state={current} label="Loading bot challenge settings…">
        {(s) => (
          <>
            <p data-testid="turnstile-status">
              {s.enabled
                ? `On: site key ${s.site_key}, secret key ${s.secret_key_hint}.`
                : s.site_key
                  ? 'Off: the site key is set but no secret key is stored.'
                  : 'Off.'}
            </p>
            <Form
              label="Turnstile keys"
              submit="Save keys"
              disabled={!(siteKey ?? s.site_key ?? '').trim() || (!s.secret_key_hint && !secretKey.trim())}
              disabledReason="Enter the site key and the secret key."
              onSubmit={async () => {
                await admin('botChallenge.setTurnstile', {
                  body: { site_key: (siteKey ?? s.site_key ?? '').trim(), ...(secretKey.trim() ? { secret_key: secretKey.trim() } : {}) },
                });
                setSecretKey('');
                changed();
              }}
            >
              <Field
                label="Site key"
                name="turnstile_site_key"
                value={siteKey ?? s.site_key ?? ''}
                onChange={setSiteKey}
                placeholder="0x4AAAAAAA…"
              />
              <Field
                label="Secret key"
                name="turnstile_secret_key"
                type="password"
                autoComplete="off"
                value={secretKey}
                onChange={setSecretKey}
                hint={s.secret_key_hint ? `Stored: ${s.secret_key_hint}. Leave empty to keep it.` : 'Stored sealed; never shown again.'}
              />
            </Form>
            {s.site_key || s.secret_key_hint ? (
              <ConfirmButton
                label="Turn off"
                question="Sign-up and sign-in will no longer ask for a bot challenge."
                onConfirm={async () => {
                  await admin('botChallenge.deleteTurnstile');
                  setSiteKey(null);
                  changed();
                }}
              />
            ) : null}
          </>
        )}
      </Async>
    </Section>
  );
}
