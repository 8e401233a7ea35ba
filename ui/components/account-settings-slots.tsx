/**
 * Account-settings sections that belong to other features: passkeys and two-factor set-up
 *, linked OAuth accounts. Each renders its whole section, or nothing while the server cannot do it
 * (CapabilitiesContext), so AccountSettings shows no heading for a feature that is missing.
 * Fill in the bodies here; AccountSettings already places them between Password and Sessions.
 */
import { useContext, type ReactNode } from 'react';
import type { User } from '../../sdk/user.ts';
import { CapabilitiesContext } from '../common.tsx';
import { useT } from '../i18n/index.tsx';
import { PasskeySettings as PasskeyList, usePasskeysOffered } from './passkeys.tsx';
import { LinkedAccounts } from './linked-accounts.tsx';
import { TwoFactorSettings as TwoFactor } from './two-factor.tsx';
import { useProject } from '../../sdk/react.tsx';

/** Props of a settings slot: the signed-in user and the frame to render a titled section in. */
export interface SettingsSlotProps {
  user: User;
  Section: (props: { title: string; children?: ReactNode }) => ReactNode;
}

/** Passkeys: list, add and remove (ui/components/passkeys.tsx), when the project and server offer them. */
export function PasskeySettings(props: SettingsSlotProps): ReactNode {
  const offered = usePasskeysOffered();
  const t = useT();
  if (!offered) return null;
  const Section = props.Section;
  return (
    <Section title={t('settings.passkeys')}>
      <PasskeyList user={props.user} />
    </Section>
  );
}

/** Two-factor authentication: TOTP enrolment and recovery codes (ui/components/two-factor.tsx), when the server has MFA sign-in. */
export function TwoFactorSettings(props: SettingsSlotProps): ReactNode {
  const can = useContext(CapabilitiesContext);
  const t = useT();
  if (!can.mfa) return null;
  const Section = props.Section;
  return (
    <Section title={t('settings.twoFactor')}>
      <TwoFactor user={props.user} />
    </Section>
  );
}

/** Linked OAuth accounts (ui/components/linked-accounts.tsx), when the project enabled a provider. */
export function LinkedAccountsSettings(props: SettingsSlotProps): ReactNode {
  const project = useProject();
  const can = useContext(CapabilitiesContext);
  const t = useT();
  if (!can.oauth || (project.config.enabled_oauth_providers ?? []).length === 0) return null;
  const Section = props.Section;
  return (
    <Section title={t('settings.linkedAccounts')}>
      <LinkedAccounts user={props.user} />
    </Section>
  );
}
