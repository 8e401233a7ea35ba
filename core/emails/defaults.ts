import { DEFAULT_EMAIL_THEME_ID } from '../config/project-config.ts';
import type { BuiltInEmailKind } from './built-in.ts';

/** The built-in "Default Light" theme's id (upstream's); a project with no `email_theme` uses it. */
export const DEFAULT_THEME_ID = DEFAULT_EMAIL_THEME_ID;

/** TSX of the default theme: a light card layout with an optional unsubscribe link. */
export const DEFAULT_THEME_SOURCE = `import { Html, Head, Body, Container, Section, Link, Text } from '@react-email/components';

export function EmailTheme({ children, unsubscribeLink }: { children: React.ReactNode, unsubscribeLink?: string }) {
  return (
    <Html>
      <Head />
      <Body style={{ backgroundColor: '#f6f6f6', fontFamily: 'Helvetica, Arial, sans-serif', padding: '24px 0' }}>
        <Container style={{ backgroundColor: '#ffffff', borderRadius: '8px', padding: '24px', maxWidth: '560px' }}>
          {children}
        </Container>
        {unsubscribeLink && (
          <Section style={{ textAlign: 'center' }}>
            <Text style={{ fontSize: '12px', color: '#888888' }}><Link href={unsubscribeLink}>Unsubscribe</Link></Text>
          </Section>
        )}
      </Body>
    </Html>
  );
}
`;

/** A dark card layout (upstream's "Default Dark" id). */
const DARK_THEME_SOURCE = `import { Html, Head, Body, Container, Section, Link, Text } from '@react-email/components';

export function EmailTheme({ children, unsubscribeLink }: { children: React.ReactNode, unsubscribeLink?: string }) {
  return (
    <Html>
      <Head />
      <Body style={{ backgroundColor: '#0f1115', color: '#e6e6e6', fontFamily: 'Helvetica, Arial, sans-serif', padding: '24px 0' }}>
        <Container style={{ backgroundColor: '#1b1e24', color: '#e6e6e6', borderRadius: '8px', padding: '24px', maxWidth: '560px' }}>
          {children}
        </Container>
        {unsubscribeLink && (
          <Section style={{ textAlign: 'center' }}>
            <Text style={{ fontSize: '12px', color: '#9a9a9a' }}><Link href={unsubscribeLink} style={{ color: '#9ab8ff' }}>Unsubscribe</Link></Text>
          </Section>
        )}
      </Body>
    </Html>
  );
}
`;

/** A card on a colored band (upstream's "Default Colorful" id). */
const COLORFUL_THEME_SOURCE = `import { Html, Head, Body, Container, Section, Link, Text } from '@react-email/components';

export function EmailTheme({ children, unsubscribeLink }: { children: React.ReactNode, unsubscribeLink?: string }) {
  return (
    <Html>
      <Head />
      <Body style={{ backgroundColor: '#eef2ff', fontFamily: 'Helvetica, Arial, sans-serif', padding: '0 0 24px 0' }}>
        <Section style={{ backgroundColor: '#4f46e5', height: '12px' }} />
        <Container style={{ backgroundColor: '#ffffff', borderRadius: '12px', padding: '24px', maxWidth: '560px', marginTop: '24px', borderTop: '4px solid #ec4899' }}>
          {children}
        </Container>
        {unsubscribeLink && (
          <Section style={{ textAlign: 'center' }}>
            <Text style={{ fontSize: '12px', color: '#6b7280' }}><Link href={unsubscribeLink}>Unsubscribe</Link></Text>
          </Section>
        )}
      </Body>
    </Html>
  );
}
`;

/**
 * The built-in themes every project has, with upstream's ids and names (stack-shared
 * `helpers/emails.ts` `DEFAULT_EMAIL_THEMES`); the sources are Gatehouse's own.
 */
export const DEFAULT_THEMES: ReadonlyArray<{ id: string; displayName: string; source: string }> = [
  { id: DEFAULT_EMAIL_THEME_ID, displayName: 'Default Light', source: DEFAULT_THEME_SOURCE },
  { id: 'a0172b5d-cff0-463b-83bb-85124697373a', displayName: 'Default Dark', source: DARK_THEME_SOURCE },
  { id: 'c7e2d94f-8a1b-4e6d-b3f5-9d0a2e7c1b8f', displayName: 'Default Colorful', source: COLORFUL_THEME_SOURCE },
];

function template(subject: string, heading: string, lines: string[], button: string | null, linkVar: string | null): string {
  return `import { Heading, Text, Button, Section } from '@react-email/components';
import { Subject, NotificationCategory, Props } from '@stackframe/emails';

export function EmailTemplate({ user, project, variables }: Props<any>) {
  return (
    <>
      <Subject value={${subject}} />
      <NotificationCategory value="Transactional" />
      <Heading style={{ fontSize: '20px' }}>{${heading}}</Heading>
${lines.map((l) => `      <Text>{${l}}</Text>`).join('\n')}
${
  button && linkVar
    ? `      <Section>
        <Button href={variables.${linkVar}} style={{ backgroundColor: '#111111', color: '#ffffff', padding: '10px 16px', borderRadius: '6px' }}>${button}</Button>
      </Section>
      <Text style={{ fontSize: '12px', color: '#666666' }}>{variables.${linkVar}}</Text>`
    : ''
}
    </>
  );
}
`;
}

/**
 * The sign-in code email: the 6-character code stands alone in its own paragraph (large,
 * monospace), as upstream's default magic-link template lays it out, so mail clients and readers
 * can pick it out; the magic link follows as a button.
 */
const MAGIC_LINK_SOURCE = `import { Heading, Text, Button, Section } from '@react-email/components';
import { Subject, NotificationCategory, Props } from '@stackframe/emails';

export function EmailTemplate({ user, project, variables }: Props<any>) {
  return (
    <>
      <Subject value={"Sign in to " + project.displayName + ": Your code is " + variables.otp} />
      <NotificationCategory value="Transactional" />
      <Heading style={{ fontSize: '20px' }}>{"Sign in to " + project.displayName}</Heading>
      <Text>{"Hi" + (user.displayName ? " " + user.displayName : "") + "! Your one-time code for signing in:"}</Text>
      <Text style={{ fontSize: '28px', fontFamily: 'monospace', fontWeight: 'bold', letterSpacing: '4px', textAlign: 'center' }}>{variables.otp}</Text>
      <Text>{"Or click the button below to sign in. If you did not request this, ignore this email."}</Text>
      <Section>
        <Button href={variables.magicLink} style={{ backgroundColor: '#111111', color: '#ffffff', padding: '10px 16px', borderRadius: '6px' }}>Sign in</Button>
      </Section>
      <Text style={{ fontSize: '12px', color: '#666666' }}>{variables.magicLink}</Text>
    </>
  );
}
`;

/** Default template of each built-in email: fixed id, display name and TSX source. */
export const DEFAULT_TEMPLATES: Record<BuiltInEmailKind, { id: string; displayName: string; source: string }> = {
  email_verification: {
    id: 'e7d009ce-8d47-4528-b245-5bf119f2ffa3',
    displayName: 'Email Verification',
    source: template(
      '"Verify your email at " + project.displayName',
      '"Verify your email"',
      ['"Hi" + (user.displayName ? " " + user.displayName : "") + "! Please verify your email address for " + project.displayName + "."'],
      'Verify my email',
      'emailVerificationLink',
    ),
  },
  magic_link: {
    id: 'a70fb3a4-56c1-4e42-af25-49d25603abd0',
    displayName: 'Sign In Code / Magic Link',
    source: MAGIC_LINK_SOURCE,
  },
  password_reset: {
    id: '066dd73c-36da-4fd0-b6d6-ebf87683f8bc',
    displayName: 'Password Reset',
    source: template(
      '"Reset your password at " + project.displayName',
      '"Reset your password"',
      ['"Somebody asked to reset the password of your account at " + project.displayName + ". If it was not you, ignore this email."'],
      'Reset my password',
      'passwordResetLink',
    ),
  },
  team_invitation: {
    id: 'e84de395-2076-4831-9c19-8e9a96a868e4',
    displayName: 'Team Invitation',
    source: template(
      '"You have been invited to join " + variables.teamDisplayName',
      '"Join " + variables.teamDisplayName',
      ['"You have been invited to join the team " + variables.teamDisplayName + " on " + project.displayName + "."'],
      'Join team',
      'teamInvitationLink',
    ),
  },
  sign_in_invitation: {
    id: '9a2d4d6c-5c2b-4c65-8f1e-2f0c7a1d3b51',
    displayName: 'Sign In Invitation',
    source: template(
      '"You have been invited to sign in to " + project.displayName',
      '"Sign in to " + project.displayName',
      ['"You have been invited to sign in to " + project.displayName + "."'],
      'Sign in',
      'signInInvitationLink',
    ),
  },
};

/** The variable holding the link in each built-in template. */
export const LINK_VARIABLE: Record<BuiltInEmailKind, string> = {
  email_verification: 'emailVerificationLink',
  magic_link: 'magicLink',
  password_reset: 'passwordResetLink',
  team_invitation: 'teamInvitationLink',
  sign_in_invitation: 'signInInvitationLink',
};
