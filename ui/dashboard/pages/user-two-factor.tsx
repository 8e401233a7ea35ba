import { ConfirmButton, Section } from '../kit.tsx';
import type { useApi } from '../kit.tsx';

type Caller = ReturnType<ReturnType<typeof useApi>['admin']>;

/**
 * Whether the user signs in with a TOTP second factor (`requires_totp_mfa`), and, when they do, a
 * way for an admin to remove it (`PATCH /users/{id}` `{totp_secret_base64: null}`, which also
 * voids the user's recovery codes) for a user who lost their authenticator.
 */
export function UserTwoFactor(props: { user: { id: string; requires_totp_mfa?: boolean }; admin: Caller; onChanged: () => void }) {
  const on = props.user.requires_totp_mfa === true;
  return (
    <Section title="Two-factor authentication">
      <div className="d-row">
        <span data-testid="user-totp">{on ? 'On: sign-in asks for an authenticator code (TOTP).' : 'Off.'}</span>
        {on ? (
          <ConfirmButton
            label="Remove two-factor"
            question="Remove this user's authenticator? They can then sign in with their first factor alone until they set it up again."
            onConfirm={async () => {
              await props.admin('users.update', { params: { user_id: props.user.id }, body: { totp_secret_base64: null } });
              props.onChanged();
            }}
          />
        ) : null}
      </div>
    </Section>
  );
}
