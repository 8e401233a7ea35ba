import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import type { AdminProject } from '../project.ts';
import { Async, Empty, Section, formatTime, useApi, useLoad, TableScroll } from '../kit.tsx';
import { Link } from '../router.tsx';
import { OnboardingChecklist } from './onboarding.tsx';

/** `GET /internal/metrics` (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/client-interface.ts admin). */
export interface Metrics {
  total_users: number;
  daily_users: { date: string; activity: number }[];
  daily_active_users: { date: string; activity: number }[];
  recently_registered: { id: string; display_name: string | null; primary_email: string | null; signed_up_at_millis: number }[];
  recently_active?: { id: string; display_name: string | null; primary_email: string | null; last_active_at_millis: number | null }[];
  login_methods?: { method: string; count: number }[];
  users_by_country?: Record<string, number>;
}

const METHOD_LABELS: Record<string, string> = {
  password: 'Email and password',
  otp: 'Magic link / one-time code',
  passkey: 'Passkey',
  anonymous: 'Anonymous',
};

/** A daily series as a uPlot line chart (x: UTC days, y: counts). */
export function DailyChart(props: { title: string; series: { date: string; activity: number }[]; testId: string }) {
  const el = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const xs = props.series.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
    const ys = props.series.map((d) => d.activity);
    const width = Math.max(200, node.clientWidth || 520);
    const chart = new uPlot(
      {
        width,
        height: 200,
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [{ stroke: '#888' }, { stroke: '#888', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000, 10000] }],
        series: [{}, { label: props.title, stroke: '#2f5bea', fill: 'rgba(47,91,234,.12)', width: 2, points: { show: true } }],
        legend: { show: false },
      },
      [xs, ys],
      node,
    );
    return () => chart.destroy();
  }, [props.series, props.title]);
  const total = props.series.reduce((s, d) => s + d.activity, 0);
  const today = props.series[props.series.length - 1]?.activity ?? 0;
  return (
    <figure style={{ margin: 0 }} data-testid={props.testId} data-total={total} data-today={today}>
      <figcaption className="d-muted">
        {props.title}: {today} today, {total} in {props.series.length} days
      </figcaption>
      <div ref={el} />
    </figure>
  );
}

/** Overview: total users, sign-ups per day, daily active users (charts), recent sign-ups. */
export function Overview(props: { project: AdminProject }) {
  const api = useApi();
  const metrics = useLoad((): Promise<Metrics> => api.admin(props.project.id)('metrics.get'), [props.project.id]);
  return (
    <>
      <div className="d-top">
        <h1>{props.project.display_name}</h1>
        <button type="button" className="d-btn" onClick={metrics.reload}>
          Refresh
        </button>
      </div>
      <Async state={metrics} label="Loading metrics…">
        {(m) => (
          <>
            <OnboardingChecklist project={props.project} totalUsers={m.total_users} />
            <div className="d-grid">
              <Section title="Total users">
                <div className="d-stat" data-testid="total-users">
                  {m.total_users}
                </div>
              </Section>
              <Section title="Sign-ups per day">
                <DailyChart title="Sign-ups" series={m.daily_users} testId="chart-signups" />
              </Section>
              <Section title="Daily active users">
                <DailyChart title="Active users" series={m.daily_active_users} testId="chart-dau" />
              </Section>
            </div>
            <div className="d-grid">
              <Section title="Sign-in methods">
                {!m.login_methods || m.login_methods.every((x) => x.count === 0) ? (
                  <Empty>No sign-ins set up yet.</Empty>
                ) : (
                  <TableScroll label="Sign-in methods">
                    <table className="d-table" aria-label="Sign-in methods">
                      <tbody>
                        {m.login_methods.map((x) => (
                          <tr key={x.method}>
                            <td>{METHOD_LABELS[x.method] ?? x.method}</td>
                            <td>{x.count}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </TableScroll>
                )}
              </Section>
              <Section title="Users by country">
                {!m.users_by_country || Object.keys(m.users_by_country).length === 0 ? (
                  <Empty>No countries known yet.</Empty>
                ) : (
                  <TableScroll label="Users by country">
                    <table className="d-table" aria-label="Users by country">
                      <tbody>
                        {Object.entries(m.users_by_country)
                          .sort((a, b) => b[1] - a[1])
                          .slice(0, 10)
                          .map(([c, n]) => (
                            <tr key={c}>
                              <td>{c}</td>
                              <td>{n}</td>
                            </tr>
                          ))}
                      </tbody>
                    </table>
                  </TableScroll>
                )}
              </Section>
              <Section title="Recently active">
                {!m.recently_active || m.recently_active.length === 0 ? (
                  <Empty>Nobody has been active yet.</Empty>
                ) : (
                  <ul>
                    {m.recently_active.map((u) => (
                      <li key={u.id}>
                        <Link to={`/projects/${props.project.id}/users/${u.id}`}>
                          {u.display_name || u.primary_email || u.id.slice(0, 8)}
                        </Link>{' '}
                        <span className="d-muted">{formatTime(u.last_active_at_millis)}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </Section>
            </div>
            <Section title="Recent sign-ups">
              {m.recently_registered.length === 0 ? (
                <Empty>
                  No users yet. <Link to={`/projects/${props.project.id}/users`}>Create one</Link> or{' '}
                  <Link to={`/projects/${props.project.id}/connect`}>connect your app</Link>.
                </Empty>
              ) : (
                <TableScroll label="Recent sign-ups">
                  <table className="d-table" aria-label="Recent sign-ups">
                    <thead>
                      <tr>
                        <th>User</th>
                        <th>Email</th>
                        <th>Signed up</th>
                      </tr>
                    </thead>
                    <tbody>
                      {m.recently_registered.slice(0, 5).map((u) => (
                        <tr key={u.id}>
                          <td>
                            <Link to={`/projects/${props.project.id}/users/${u.id}`}>{u.display_name ?? u.id.slice(0, 8)}</Link>
                          </td>
                          <td>{u.primary_email ?? '—'}</td>
                          <td>{formatTime(u.signed_up_at_millis)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              )}
            </Section>
          </>
        )}
      </Async>
    </>
  );
}
