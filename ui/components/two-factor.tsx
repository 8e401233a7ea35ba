import { useState, type FormEvent } from 'react';
import { useProject } from '../../sdk/react.tsx';
import { generateTotpSecret, toBase32, totpAuthUri, verifyTotp } from '../../sdk/totp.ts';
import type { User } from '../../sdk/user.ts';
import { Field, FormError, Success, useAction } from '../common.tsx';
import { QrCode } from './qr-code.tsx';

/** The one-time list of new recovery codes (Gatehouse extension, docs/mfa.md). */
function RecoveryCodeList(props: { codes: string[] }) {
  return (
    <div>
      <Success>Save these recovery codes somewhere safe. Each signs you in once if you lose your authenticator; they are shown only now.</Success>
      <ol className="gh-list" aria-label="Recovery codes">
        {props.codes.map((c) => <li key={c}><code>{c}</code></li>)}
      </ol>
    </div>
  );
}

/** Step two of enrolment: scan (or type) the secret, then prove it with a code before saving it. */
function Enrol(props: { user: User; secret: Uint8Array; onDone: (codes: string[]) => void; onCancel: () => void }) {
  const project = useProject();
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
        setProblem('The code is not correct. Check the time on your device and try again.');
        return;
      }
      setProblem(null);
      await props.user.setTotpSecret(props.secret);
      props.onDone(await props.user.createMfaRecoveryCodes());
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Set up two-factor authentication">
      <p>Scan this QR code with an authenticator app, then enter the 6-digit code it shows.</p>
      <QrCode value={uri} label="QR code for your authenticator app" />
      <p className="gh-muted">Or type this key: <code data-testid="totp-secret">{toBase32(props.secret).match(/.{1,4}/g)!.join(' ')}</code></p>
      <Field label="Authentication code" name="totp" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={setCode} error={problem} />
      <FormError error={error} />
      <div className="gh-row">
        <button type="submit" className="gh-btn gh-primary" disabled={busy}>{busy ? 'Turning on…' : 'Turn on'}</button>
        <button type="button" className="gh-btn" disabled={busy} onClick={props.onCancel}>Cancel</button>
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
  const [secret, setSecret] = useState<Uint8Array | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [enabled, setEnabled] = useState(props.user.isMultiFactorRequired);
  const { busy, error, run } = useAction();
  if (secret) return <Enrol user={props.user} secret={secret} onCancel={() => setSecret(null)} onDone={(c) => { setSecret(null); setEnabled(true); setCodes(c); }} />;
  if (!enabled) {
    return (
      <div>
        <p className="gh-muted">Two-factor authentication is off. Turn it on to be asked for a code from an authenticator app each time you sign in.</p>
        <button type="button" className="gh-btn" onClick={() => { setCodes(null); setSecret(generateTotpSecret()); }}>Set up two-factor authentication</button>
      </div>
    );
  }
  return (
    <div>
      <p><span className="gh-badge">On</span> Signing in asks for a code from your authenticator app.</p>
      {codes ? <RecoveryCodeList codes={codes} /> : null}
      <FormError error={error} />
      <div className="gh-row">
        <button type="button" className="gh-btn" disabled={busy} onClick={() => run(async () => setCodes(await props.user.createMfaRecoveryCodes()))}>Create new recovery codes</button>
        <button type="button" className="gh-btn gh-danger" disabled={busy} onClick={() => run(async () => { await props.user.setTotpSecret(null); setCodes(null); setEnabled(false); })}>Turn off</button>
      </div>
    </div>
  );
}
