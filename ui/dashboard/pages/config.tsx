import { useState } from 'react';
import type { AdminProject } from '../project.ts';
import { Async, Empty, Form, Section, TableScroll, useApi, useLoad } from '../kit.tsx';

/** Keys whose values are secrets: shown masked in the rendered view. */
const SECRET_KEY = /(secret|password)$/i;

/** Flattens a rendered config into leaf rows (`auth.password.allowSignIn` → true). */
export function configRows(config: unknown, prefix = ''): { path: string; value: unknown }[] {
  if (typeof config === 'object' && config !== null && !Array.isArray(config) && Object.keys(config).length > 0) {
    return Object.entries(config).flatMap(([k, v]) => configRows(v, prefix ? `${prefix}.${k}` : k));
  }
  return prefix ? [{ path: prefix, value: config }] : [];
}

function show(path: string, value: unknown): string {
  if (SECRET_KEY.test(path) && typeof value === 'string' && value !== '') return '••••••••';
  return JSON.stringify(value);
}

/** The "From" column: `default`, `project`, `environment`, or for the branch level `file` when a file was pushed. */
function originLabel(origin: string | undefined, sourceType: string): string {
  if (origin === 'branch') return sourceType.startsWith('pushed-from-') ? 'file' : 'branch';
  return origin ?? 'default';
}

/**
 * The configuration model of a project: the rendered config with the level each value
 * came from, and an editor for the environment-level override (`/internal/config/**`).
 */
export function ConfigPage(props: { project: AdminProject; onChanged: () => void }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const rendered = useLoad(async () => {
    const [config, origins, branch] = await Promise.all([
      admin('config.get'),
      admin('config.getOrigins'),
      admin('config.getOverride', { params: { level: 'branch' } }),
    ]);
    const branchValues = new Map(configRows(JSON.parse(branch.config_string)).map((r) => [r.path, r.value]));
    return { config: JSON.parse(config.config_string) as unknown, origins: origins.origins, source: origins.source, branchValues };
  }, [props.project.id]);
  const [text, setText] = useState('');
  const environment = useLoad(async () => {
    const res = await admin('config.getOverride', { params: { level: 'environment' } });
    setText(JSON.stringify(JSON.parse(res.config_string), null, 2));
    return res;
  }, [props.project.id]);
  return (
    <>
      <div className="d-top">
        <h1>Configuration</h1>
      </div>
      <Section
        title="Environment override"
        description="Dotted keys (for example &quot;auth.otp.allowSignIn&quot;: true) override the branch config and the defaults. Secrets, trusted domains, the email server and OAuth credentials live here."
      >
        <Async state={environment} label="Loading the environment override…">
          {() => (
            <Form
              label="Environment override"
              submit="Save override"
              busyLabel="Saving…"
              onSubmit={async () => {
                let parsed: unknown;
                try {
                  parsed = JSON.parse(text);
                } catch {
                  throw new Error('The override is not valid JSON.');
                }
                await admin('config.setOverride', { params: { level: 'environment' }, body: { config_string: JSON.stringify(parsed) } });
                rendered.reload();
                environment.reload();
                props.onChanged();
              }}
            >
              <div className="d-field">
                <label htmlFor="env-override">Override (JSON)</label>
                <textarea
                  id="env-override"
                  name="env-override"
                  rows={14}
                  spellCheck={false}
                  value={text}
                  onChange={(e) => setText((e.target as HTMLTextAreaElement).value)}
                  style={{ fontFamily: 'monospace', width: '100%' }}
                />
              </div>
            </Form>
          )}
        </Async>
      </Section>
      <Async state={rendered} label="Loading the configuration…">
        {({ config, origins, source, branchValues }) => (
          <Section
            title="Rendered configuration"
            description={
              <>
                Every value in effect, and where it came from. Branch config source:{' '}
                <strong data-testid="config-source">
                  {source.type === 'pushed-from-unknown' ? 'pushed from a file (gatehouse config push)' : source.type}
                </strong>
                . A value set here or by the project settings (environment) overrides the file's; &ldquo;Use the file&rsquo;s value&rdquo;
                hands it back (docs/config-as-code.md).
              </>
            }
          >
            {configRows(config).length === 0 ? (
              <Empty>No configuration.</Empty>
            ) : (
              <TableScroll label="Rendered configuration">
                <table className="d-table" aria-label="Rendered configuration">
                  <thead>
                    <tr>
                      <th>Key</th>
                      <th>Value</th>
                      <th>From</th>
                      <th />
                    </tr>
                  </thead>
                  <tbody>
                    {configRows(config).map((r) => (
                      <tr key={r.path} data-testid={`config-row-${r.path}`}>
                        <td>
                          <code>{r.path}</code>
                        </td>
                        <td>
                          <code>{show(r.path, r.value)}</code>
                        </td>
                        <td>{originLabel(origins[r.path], source.type)}</td>
                        <td>
                          {origins[r.path] === 'environment' && branchValues.has(r.path) ? (
                            <button
                              type="button"
                              className="d-btn"
                              title={`The file says ${show(r.path, branchValues.get(r.path))}`}
                              onClick={async () => {
                                await admin('config.resetOverrideKeys', { params: { level: 'environment' }, body: { keys: [r.path] } });
                                rendered.reload();
                                environment.reload();
                                props.onChanged();
                              }}
                            >
                              Use the file&rsquo;s value
                            </button>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </Section>
        )}
      </Async>
    </>
  );
}
