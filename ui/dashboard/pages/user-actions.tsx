import { useState, type ReactNode } from 'react';
import { Ban, LogOut, Trash2, UserCheck } from 'lucide';
import { Icon } from '../../icon.tsx';
import { ConfirmDialogButton } from '../controls/confirm-dialog.tsx';
import { DialogButton } from '../controls/dialog.tsx';
import { Field, Form, Section, type useApi } from '../kit.tsx';
import type { WireUser } from './users.tsx';

type Caller = ReturnType<ReturnType<typeof useApi>['admin']>;

/** Signs out every session of a user (`GET /auth/sessions?user_id=` then `DELETE` each); answers how many. */
export async function signOutEverywhere(admin: Caller, userId: string): Promise<number> {
  const sessions = await admin('sessions.list', { query: { user_id: userId } });
  for (const s of sessions.items) await admin('sessions.delete', { params: { id: s.id }, query: { user_id: userId }, body: {} });
  return sessions.items.length;
}

/**
 * The user's consequential actions, each asking first in a dialog: sign out everywhere, restrict
 * (`restricted_by_admin`, with the reason the user sees and private notes; their sessions are
 * signed out too) or lift the restriction, and delete (type the user's email or id to confirm).
 * `impersonate` is the page's own button (it needs the hosted pages' cookie).
 */
export function UserActions(props: {
  user: WireUser;
  admin: Caller;
  onChanged: () => void;
  onDeleted: () => void;
  impersonate: ReactNode;
}) {
  const { user, admin } = props;
  const restricted = user.restricted_by_admin === true;
  const [reason, setReason] = useState('');
  const [details, setDetails] = useState('');
  const who = user.primary_email || user.id;
  return (
    <Section title="Actions">
      {restricted ? (
        <p className="d-error" role="note" data-testid="user-restricted">
          Restricted by an administrator
          {typeof user.restricted_by_admin_reason === 'string' && user.restricted_by_admin_reason
            ? `: ${user.restricted_by_admin_reason}`
            : '.'}
        </p>
      ) : null}
      <div className="d-row" style={{ flexWrap: 'wrap' }}>
        {props.impersonate}
        <ConfirmDialogButton
          label="Sign out everywhere"
          title="Sign out everywhere"
          icon={<Icon icon={LogOut} size={16} />}
          confirmLabel="Sign out every session"
          danger={false}
          onConfirm={async () => {
            await signOutEverywhere(admin, user.id);
            props.onChanged();
          }}
        >
          Every session of {who} ends: their refresh tokens stop working, and each device asks them to sign in again once its access token
          expires.
        </ConfirmDialogButton>
        {restricted ? (
          <ConfirmDialogButton
            label="Lift restriction"
            title="Lift the restriction"
            icon={<Icon icon={UserCheck} size={16} />}
            confirmLabel="Lift restriction"
            danger={false}
            onConfirm={async () => {
              await admin('users.update', { params: { user_id: user.id }, body: { restricted_by_admin: false } });
              props.onChanged();
            }}
          >
            {who} can use your apps again at their next sign-in or token refresh.
          </ConfirmDialogButton>
        ) : (
          <DialogButton
            label="Restrict user"
            title="Restrict this user"
            primary={false}
            icon={<Icon icon={Ban} size={16} />}
            description="A restricted user is signed out everywhere; apps then see them as restricted (the SDK treats them as signed out unless the app includes restricted users) until you lift it."
          >
            {(close) => (
              <Form
                label="Restrict this user"
                submit="Restrict and sign out"
                success="User restricted"
                onDone={close}
                onSubmit={async () => {
                  await admin('users.update', {
                    params: { user_id: user.id },
                    body: {
                      restricted_by_admin: true,
                      restricted_by_admin_reason: reason.trim() || null,
                      restricted_by_admin_private_details: details.trim() || null,
                    },
                  });
                  await signOutEverywhere(admin, user.id);
                  props.onChanged();
                }}
              >
                <Field label="Reason (the user sees it)" name="restrict-reason" value={reason} onChange={setReason} />
                <Field label="Private notes (only admins see them)" name="restrict-details" value={details} onChange={setDetails} />
              </Form>
            )}
          </DialogButton>
        )}
        <ConfirmDialogButton
          label="Delete user"
          title="Delete this user"
          icon={<Icon icon={Trash2} size={16} />}
          confirmLabel="Delete user"
          typeToConfirm={who}
          onConfirm={async () => {
            await admin('users.delete', { params: { user_id: user.id }, body: {} });
            props.onDeleted();
          }}
        >
          {who}, their sessions, contact channels, linked accounts, passkeys, memberships and API keys are deleted. This cannot be undone.
        </ConfirmDialogButton>
      </div>
    </Section>
  );
}
