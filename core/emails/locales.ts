import type { BuiltInEmailKind } from './built-in.ts';

/** The languages the built-in emails are written in (the hosted pages' catalogues, ui/i18n). */
export type EmailLocale = 'en' | 'de';
const EMAIL_LOCALES: readonly EmailLocale[] = ['en', 'de'];

/**
 * The email language for a BCP 47 tag (`de-AT` → `de`), or null when Gatehouse has no built-in
 * emails in it.
 */
export function emailLocaleOf(tag: string | null | undefined): EmailLocale | null {
  const base = tag?.toLowerCase().split(/[-_]/)[0];
  return EMAIL_LOCALES.find((l) => l === base) ?? null;
}

/** One built-in email's words: subject, heading, paragraphs (a `code` one stands out), button. */
export interface BuiltInWords {
  subject: string;
  heading: string;
  lines: Array<{ text: string; code?: boolean }>;
  button: string;
}

type Words = Record<BuiltInEmailKind, (v: Record<string, string>) => BuiltInWords>;

const hi = (v: Record<string, string>, word: string) => `${word}${v.userDisplayName ? ` ${v.userDisplayName}` : ''}!`;

const EN: Words = {
  email_verification: (v) => ({
    subject: `Verify your email at ${v.projectDisplayName}`,
    heading: 'Verify your email',
    lines: [{ text: `${hi(v, 'Hi')} Please verify your email address for ${v.projectDisplayName}.` }],
    button: 'Verify my email',
  }),
  // The code stands alone on its own line / paragraph, as in upstream's magic-link template.
  magic_link: (v) => ({
    subject: `Sign in to ${v.projectDisplayName}: Your code is ${v.otp}`,
    heading: `Sign in to ${v.projectDisplayName}`,
    lines: [
      { text: `${hi(v, 'Hi')} Your one-time code for signing in:` },
      { text: v.otp ?? '', code: true },
      { text: 'Or click the button below to sign in. If you did not request this, ignore this email.' },
    ],
    button: 'Sign in',
  }),
  password_reset: (v) => ({
    subject: `Reset your password at ${v.projectDisplayName}`,
    heading: 'Reset your password',
    lines: [
      { text: `Somebody asked to reset the password of your account at ${v.projectDisplayName}. If it was not you, ignore this email.` },
    ],
    button: 'Reset my password',
  }),
  team_invitation: (v) => ({
    subject: `You have been invited to join ${v.teamDisplayName}`,
    heading: `Join ${v.teamDisplayName}`,
    lines: [{ text: `You have been invited to join the team ${v.teamDisplayName} on ${v.projectDisplayName}.` }],
    button: 'Join team',
  }),
  sign_in_invitation: (v) => ({
    subject: `You have been invited to sign in to ${v.projectDisplayName}`,
    heading: `Sign in to ${v.projectDisplayName}`,
    lines: [{ text: `You have been invited to sign in to ${v.projectDisplayName}.` }],
    button: 'Sign in',
  }),
};

/** German, in the Sie-form of the hosted pages' catalogue (ui/i18n/de.ts). */
const DE: Words = {
  email_verification: (v) => ({
    subject: `Bestätigen Sie Ihre E-Mail-Adresse bei ${v.projectDisplayName}`,
    heading: 'Bestätigen Sie Ihre E-Mail-Adresse',
    lines: [{ text: `${hi(v, 'Hallo')} Bitte bestätigen Sie Ihre E-Mail-Adresse für ${v.projectDisplayName}.` }],
    button: 'E-Mail-Adresse bestätigen',
  }),
  magic_link: (v) => ({
    subject: `Anmeldung bei ${v.projectDisplayName}: Ihr Code lautet ${v.otp}`,
    heading: `Bei ${v.projectDisplayName} anmelden`,
    lines: [
      { text: `${hi(v, 'Hallo')} Ihr Einmalcode für die Anmeldung:` },
      { text: v.otp ?? '', code: true },
      { text: 'Oder melden Sie sich über die Schaltfläche unten an. Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail.' },
    ],
    button: 'Anmelden',
  }),
  password_reset: (v) => ({
    subject: `Setzen Sie Ihr Passwort bei ${v.projectDisplayName} zurück`,
    heading: 'Passwort zurücksetzen',
    lines: [
      {
        text: `Jemand hat angefordert, das Passwort Ihres Kontos bei ${v.projectDisplayName} zurückzusetzen. Wenn Sie das nicht waren, ignorieren Sie diese E-Mail.`,
      },
    ],
    button: 'Passwort zurücksetzen',
  }),
  team_invitation: (v) => ({
    subject: `Sie wurden eingeladen, ${v.teamDisplayName} beizutreten`,
    heading: `${v.teamDisplayName} beitreten`,
    lines: [{ text: `Sie wurden eingeladen, dem Team ${v.teamDisplayName} bei ${v.projectDisplayName} beizutreten.` }],
    button: 'Team beitreten',
  }),
  sign_in_invitation: (v) => ({
    subject: `Sie wurden eingeladen, sich bei ${v.projectDisplayName} anzumelden`,
    heading: `Bei ${v.projectDisplayName} anmelden`,
    lines: [{ text: `Sie wurden eingeladen, sich bei ${v.projectDisplayName} anzumelden.` }],
    button: 'Anmelden',
  }),
};

const WORDS: Record<EmailLocale, Words> = { en: EN, de: DE };

/** The words of built-in email `kind` in `locale` with the template variables `vars` filled in. */
export function builtInWords(kind: BuiltInEmailKind, locale: EmailLocale, vars: Record<string, string>): BuiltInWords {
  return WORDS[locale][kind](vars);
}

/**
 * A TSX template source (the sandbox's format, core/emails/defaults.ts) with `words` as literal
 * text and the link from `variables[linkVariable]`: the project's default template, localized,
 * rendered with the project's theme. Text enters as JSON string literals, so no variable can
 * become markup.
 */
export function localizedTemplateSource(words: BuiltInWords, linkVariable: string): string {
  const text = (s: string) => `{${JSON.stringify(s)}}`;
  const lines = words.lines.map((l) =>
    l.code
      ? `      <Text style={{ fontSize: '28px', fontFamily: 'monospace', fontWeight: 'bold', letterSpacing: '4px', textAlign: 'center' }}>${text(l.text)}</Text>`
      : `      <Text>${text(l.text)}</Text>`,
  );
  return `import { Heading, Text, Button, Section } from '@react-email/components';
import { Subject, NotificationCategory, Props } from '@stackframe/emails';

export function EmailTemplate({ variables }: Props<any>) {
  return (
    <>
      <Subject value=${text(words.subject)} />
      <NotificationCategory value="Transactional" />
      <Heading style={{ fontSize: '20px' }}>${text(words.heading)}</Heading>
${lines.join('\n')}
      {variables.${linkVariable} ? (
        <>
          <Section>
            <Button href={variables.${linkVariable}} style={{ backgroundColor: '#111111', color: '#ffffff', padding: '10px 16px', borderRadius: '6px' }}>${text(words.button)}</Button>
          </Section>
          <Text style={{ fontSize: '12px', color: '#666666' }}>{variables.${linkVariable}}</Text>
        </>
      ) : null}
    </>
  );
}
`;
}
