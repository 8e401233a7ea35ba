import { useState, type FormEvent } from 'react';
import { useProject } from '../../sdk/react.tsx';
import { generateTotpSecret, toBase32, totpAuthUri, verifyTotp } from '../../sdk/totp.ts';
import type { User } from '../../sdk/user.ts';
import { Field, FormError, Success, useAction } from '../common.tsx';
import { QrCode } from './qr-code.tsx';
import { useT } from '../i18n/index.tsx';

/**
 * The one-time list of new recovery codes (Gatehouse extension, docs/mfa.md), with Copy (all
 * codes, one a line) and Download (a text file made in the page; nothing is fetched).
 */
function RecoveryCodeList(props: { codes: string[] }) {
  const t = useT();
  const project = useProject();
  const [copied, setCopied] = useState(false);
  const text = `${t('twoFactor.fileTitle', { project: project.display_name })}\n\n${props.codes.join('\n')}\n`;
  return (
    <div>
      <Success>{t('twoFactor.saveCodes')}</Success>
      <ol className="gh-list" aria-label={t('twoFactor.codesList')}>
        {props.codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <div className="gh-row">
        <button
          type="button"
          className="gh-btn"
          onClick={async () => {
            await (globalThis as { navigator?: { clipboard?: { writeText(s: string): Promise<void> } } }).navigator?.clipboard?.writeText(
              props.codes.join('\n'),
            );
            setCopied(true);
          }}
        >
          {copied ? t('common.copied') : t('twoFactor.copyCodes')}
        </button>
        <a className="gh-btn" href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download="recovery-codes.txt">
          {t('twoFactor.downloadCodes')}
        </a>
      </div>
    </div>
  );
}

/** Step two of enrolment: scan (or type) the secret, then prove it with a code before saving it. */
function Enrol(props: { user: User; secret: Uint8Array; onDone: (codes: string[]) => void; onCancel: () => void }) {
  const project = useProject();
  const t = useT();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const account = props.user.primaryEmail ?? props.user.displayName ?? props.user.id;
  const uri = totpAuthUri({ secret: props.secret, account, issuer: project.display_name });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await run(async () => {
      // Checked here before saving, so a mistyped scan cannot lock the user out.
      if (!(await verifyTotp(props.secret, code, Date.now()))) {
        setProblem(t('twoFactor.wrongCode'));
        return;
      }
      setProblem(null);
      await props.user.setTotpSecret(props.secret);
      props.onDone(await props.user.createMfaRecoveryCodes());
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('twoFactor.setUp')}>
      <p>{t('twoFactor.scan')}</p>
      <QrCode value={uri} label={t('twoFactor.qr')} />
      <p className="gh-muted">
        {t.rich('twoFactor.typeKey', {
          key: (
            <code data-testid="totp-secret">
              {toBase32(props.secret)
                .match(/.{1,4}/g)!
                .join(' ')}
            </code>
          ),
        })}
      </p>
      <Field
        label={t('mfa.code')}
        name="totp"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onChange={setCode}
        error={problem}
      />
      <FormError error={error} />
      <div className="gh-row">
        <button type="submit" className="gh-btn gh-primary" disabled={busy}>
          {busy ? t('twoFactor.turningOn') : t('twoFactor.turnOn')}
        </button>
        <button type="button" className="gh-btn" disabled={busy} onClick={props.onCancel}>
          {t('cli.cancel')}
        </button>
      </div>
    </form>
  );
}

/**
 * Account-settings two-factor authentication: enrol a TOTP authenticator (QR code drawn locally,
 * the code checked before the secret is saved with `PATCH /users/me`), see and create recovery
 * codes (Gatehouse extension), and turn it off.
 */
export function TwoFactorSettings(props: { user: User }) {
  const t = useT();
  const [secret, setSecret] = useState<Uint8Array | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [enabled, setEnabled] = useState(props.user.isMultiFactorRequired);
  const { busy, error, run } = useAction();
  if (secret)
    return (
      <Enrol
        user={props.user}
        secret={secret}
        onCancel={() => setSecret(null)}
        onDone={(c) => {
          setSecret(null);
          setEnabled(true);
          setCodes(c);
        }}
      />
    );
  if (!enabled) {
    return (
      <div>
        <p className="gh-muted">{t('twoFactor.off')}</p>
        <button
          type="button"
          className="gh-btn"
          onClick={() => {
            setCodes(null);
            setSecret(generateTotpSecret());
          }}
        >
          {t('twoFactor.setUp')}
        </button>
      </div>
    );
  }
  return (
    <div>
      <p>
        <span className="gh-badge">{t('twoFactor.onBadge')}</span> {t('twoFactor.on')}
      </p>
      {codes ? <RecoveryCodeList codes={codes} /> : null}
      <FormError error={error} />
      <div className="gh-row">
        <button
          type="button"
          className="gh-btn"
          disabled={busy}
          onClick={() => run(async () => setCodes(await props.user.createMfaRecoveryCodes()))}
        >
          {t('twoFactor.newCodes')}
        </button>
        <button
          type="button"
          className="gh-btn gh-danger"
          disabled={busy}
          onClick={() =>
            run(async () => {
              await props.user.setTotpSecret(null);
              setCodes(null);
              setEnabled(false);
            })
          }
        >
          {t('twoFactor.turnOff')}
        </button>
      </div>
    </div>
  );
}
