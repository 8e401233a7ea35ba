import { Check } from 'lucide';
import type { Page } from '../api.ts';
import { Icon } from '../../icon.tsx';
import type { AdminProject } from '../project.ts';
import { Section, useApi, useLoad } from '../kit.tsx';
import { Link } from '../router.tsx';

/** One step of the checklist: done from the project's real state, and where to do it. */
interface Step {
  key: string;
  label: string;
  hint: string;
  done: boolean;
  to: string;
}

/** Local record of a test email sent from the Emails page (the server keeps no log of them). */
export function testEmailKey(projectId: string): string {
  return `gatehouse:test-email-sent:${projectId}`;
}

function testEmailSentHere(projectId: string): boolean {
  try {
    return localStorage.getItem(testEmailKey(projectId)) !== null;
  } catch {
    return false;
  }
}

/**
 * The overview's onboarding checklist. Each step ticks itself from the project's state:
 * - connect your app: the project has a user (someone signed up through the app);
 * - choose sign-in methods: magic link, passkeys or an OAuth provider is on besides passwords;
 * - add a trusted domain: `config.domains` is not empty;
 * - send a test email: the sent-email log has an email, or a test email was sent from this browser;
 * - invite a teammate: the project's owner team has another member or a pending invitation.
 * Hidden once every step is done.
 */
export function OnboardingChecklist(props: { project: AdminProject; totalUsers: number }) {
  const api = useApi();
  const { project } = props;
  const emails = useLoad((): Promise<Page<unknown>> => api.admin(project.id)('emails.list'), [project.id]);
  const team = useLoad(async (): Promise<{ members: number; invitations: number }> => {
    if (!project.owner_team_id) return { members: 0, invitations: 0 };
    const query = { team_id: project.owner_team_id };
    const [members, invitations] = await Promise.all([
      api.internal('projects.listOwnerTeamMembers', { query }) as Promise<Page<unknown>>,
      (api.internal('teamInvitations.list', { query }) as Promise<Page<unknown>>).catch(() => ({ items: [] })),
    ]);
    return { members: members.items.length, invitations: invitations.items.length };
  }, [project.id, project.owner_team_id]);
  const config = project.config ?? {};
  const base = `/projects/${project.id}`;
  const steps: Step[] = [
    {
      key: 'connect',
      label: 'Connect your app',
      hint: 'Install the SDK with the project id and keys; the first sign-up ticks this.',
      done: props.totalUsers > 0,
      to: `${base}/connect`,
    },
    {
      key: 'methods',
      label: 'Choose sign-in methods',
      hint: 'Turn on magic links, passkeys or an OAuth provider besides passwords.',
      done:
        Boolean(config.magic_link_enabled) ||
        Boolean(config.passkey_enabled) ||
        ((config.oauth_providers ?? []) as { enabled?: boolean }[]).some((p) => p.enabled !== false),
      to: `${base}/auth-methods`,
    },
    {
      key: 'domain',
      label: 'Add a trusted domain',
      hint: 'Redirects after sign-in may only go to trusted domains.',
      done: ((config.domains ?? []) as unknown[]).length > 0,
      to: `${base}/auth-methods`,
    },
    {
      key: 'email',
      label: 'Send a test email',
      hint: 'Check that sign-in emails reach an inbox.',
      done: (emails.data?.items.length ?? 0) > 0 || testEmailSentHere(project.id),
      to: `${base}/emails`,
    },
    {
      key: 'teammate',
      label: 'Invite a teammate',
      hint: 'Owners of the project’s team can manage it with you.',
      done: (team.data?.members ?? 0) > 1 || (team.data?.invitations ?? 0) > 0,
      to: '/team',
    },
  ];
  const done = steps.filter((s) => s.done).length;
  if (emails.loading || team.loading || done === steps.length) return null;
  return (
    <Section title="Get started" description={`${done} of ${steps.length} done.`}>
      <div
        className="d-progress"
        role="progressbar"
        aria-label="Setup progress"
        aria-valuemin={0}
        aria-valuemax={steps.length}
        aria-valuenow={done}
      >
        <span style={{ width: `${(done / steps.length) * 100}%` }} />
      </div>
      <ul className="d-checklist" aria-label="Setup steps">
        {steps.map((s) => (
          <li key={s.key} data-step={s.key} data-done={s.done ? '' : undefined}>
            <span className="d-check" data-done={s.done ? '' : undefined} aria-hidden="true">
              {s.done && <Icon icon={Check} size={14} />}
            </span>
            <span>
              <Link to={s.to}>{s.label}</Link>
              <span className="d-visually-hidden">{s.done ? ' (done)' : ' (to do)'}</span>
              <br />
              <small className="d-muted">{s.hint}</small>
            </span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
