import { useState } from 'react';
import type { AdminProject } from '../project.ts';
import { ErrorBox, Section, TableScroll, Toggle, useAction, useApi } from '../kit.tsx';

/** Lines sent per call (the route takes at most 5,000). */
const BATCH = 1000;
/** Largest file read in the browser; bigger files go through `gatehouse import` (streamed). */
const MAX_FILE_BYTES = 50 * 1024 * 1024;

interface LineResult {
  line: number;
  status: string;
  type?: string;
  id?: string;
  error?: { code: string; message: string };
}

/** What an import (or a dry run) did so far. */
interface Progress {
  lines: number;
  done: number;
  created: number;
  updated: number;
  failed: LineResult[];
  dryRun: boolean;
  finished: boolean;
}

/**
 * Dashboard "Import users": a file in Gatehouse's import format (NDJSON, e.g. written by
 * `gatehouse export`) sent to `POST /internal/users/import` in batches of 1,000 lines, with a dry
 * run first if wished; shows progress and every failed line with its code and reason
 * (docs/migrating.md). Other vendors' exports and sealed exports go through the CLI, which
 * converts them (the page says so).
 */
export function ImportUsersPage(props: { project: AdminProject }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const [file, setFile] = useState<File | null>(null);
  const [dryRun, setDryRun] = useState(true);
  const [progress, setProgress] = useState<Progress | null>(null);
  const { busy, error, run } = useAction();

  const start = () =>
    run(async () => {
      if (!file) return;
      if (file.size > MAX_FILE_BYTES) throw new Error('This file is over 50 MB: import it with `gatehouse import` (docs/migrating.md).');
      const text = await file.text();
      if (text.includes('"sealed_secrets"'))
        throw new Error('This export has sealed secrets: import it with `gatehouse import` and its passphrase (docs/migrating.md).');
      const lines = text.split(/\r?\n/);
      if (lines.at(-1) === '') lines.pop();
      const state: Progress = { lines: lines.length, done: 0, created: 0, updated: 0, failed: [], dryRun, finished: false };
      setProgress({ ...state });
      for (let first = 0; first < lines.length; first += BATCH) {
        const answer = (await admin('userImport.import', {
          query: dryRun ? { dry_run: 'true' } : {},
          body: { first_line: first + 1, lines: lines.slice(first, first + BATCH) },
        } as never)) as { results: LineResult[]; created: number; updated: number; failed: number };
        state.done = Math.min(lines.length, first + BATCH);
        state.created += answer.created;
        state.updated += answer.updated;
        state.failed = [...state.failed, ...answer.results.filter((r) => r.status === 'failed')];
        setProgress({ ...state });
      }
      setProgress({ ...state, finished: true });
    });

  return (
    <>
      <div className="d-top">
        <h1>Import users</h1>
      </div>
      <Section
        title="From a file"
        description={
          <>
            A file in Gatehouse's import format: one JSON user or team per line, as <code>gatehouse export</code> writes it. From Stack
            Auth, Clerk, Auth0, Firebase, Supabase or Better Auth, run <code>gatehouse import --from &lt;vendor&gt;</code>, which converts
            their exports and databases (docs/migrating.md). Users keep their passwords; hashes become argon2id at their first sign-in.
          </>
        }
      >
        <div className="d-form">
          <label className="d-field">
            <span>File (.ndjson)</span>
            <input
              type="file"
              accept=".ndjson,.jsonl,.json,application/x-ndjson"
              onChange={(e) => {
                setFile(e.currentTarget.files?.[0] ?? null);
                setProgress(null);
              }}
            />
          </label>
          <Toggle
            label="Dry run: check every line, write nothing"
            checked={dryRun}
            onChange={setDryRun}
            disabled={busy}
            hint="Turn it off to import."
          />
          <ErrorBox error={error} />
          <div className="d-row">
            <button
              type="button"
              className="d-btn d-primary"
              aria-disabled={!file || busy ? true : undefined}
              onClick={() => void (file && !busy && start())}
            >
              {busy ? 'Importing…' : dryRun ? 'Check the file' : 'Import'}
            </button>
          </div>
        </div>
        {progress ? <ImportProgress progress={progress} /> : null}
      </Section>
    </>
  );
}

function ImportProgress(props: { progress: Progress }) {
  const p = props.progress;
  const verb = p.dryRun ? 'would create' : 'created';
  return (
    <div data-testid="import-progress">
      <p role="status" aria-live="polite">
        {p.finished ? (p.dryRun ? 'Dry run finished, nothing written: ' : 'Import finished: ') : `Line ${p.done} of ${p.lines}: `}
        {p.created} {verb}, {p.updated} {p.dryRun ? 'would update' : 'updated'}, {p.failed.length} failed.
      </p>
      {p.failed.length > 0 ? (
        <TableScroll label="Failed lines">
          <table className="d-table" aria-label="Failed lines">
            <thead>
              <tr>
                <th>Line</th>
                <th>Code</th>
                <th>Reason</th>
              </tr>
            </thead>
            <tbody>
              {p.failed.slice(0, 500).map((r) => (
                <tr key={r.line}>
                  <td>{r.line}</td>
                  <td>
                    <code>{r.error?.code}</code>
                  </td>
                  <td>{r.error?.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </div>
  );
}
