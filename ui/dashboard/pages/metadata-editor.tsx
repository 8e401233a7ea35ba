import { useState } from 'react';
import { Form, Section } from '../kit.tsx';
import { parseMetadataField } from '../validate.ts';

/** The three metadata fields of a user or a team, with who can see them. */
const METADATA = [
  ['client_metadata', 'Client metadata', 'readable and writable by the user'],
  ['client_read_only_metadata', 'Client read-only metadata', 'readable by the user, written by your server'],
  ['server_metadata', 'Server metadata', 'only your server sees it'],
] as const;

type MetadataKey = (typeof METADATA)[number][0];

/**
 * Editors for a user's or a team's client, client read-only and server metadata: JSON checked as
 * you type against the server's bounds (depth and length; ui/dashboard/validate.ts), saved
 * together with one PATCH (`save`). `idPrefix` keeps the textareas' ids unique on the page.
 */
export function MetadataEditor(props: {
  values: Partial<Record<MetadataKey, unknown>>;
  save: (body: Record<MetadataKey, unknown>) => Promise<void>;
  idPrefix: string;
}) {
  const [texts, setTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(METADATA.map(([k]) => [k, props.values[k] == null ? '' : JSON.stringify(props.values[k], null, 2)])),
  );
  const [saved, setSaved] = useState(false);
  const results = Object.fromEntries(METADATA.map(([k]) => [k, parseMetadataField(texts[k] ?? '')]));
  const invalid = Object.values(results).some((r) => !r.ok);
  return (
    <Section title="Metadata" description="JSON objects, checked as you type; empty means none.">
      <Form
        label="Metadata"
        submit="Save metadata"
        success="Metadata saved"
        disabled={invalid}
        disabledReason="Fix the JSON above first."
        onSubmit={async () => {
          const body = {} as Record<MetadataKey, unknown>;
          for (const [k] of METADATA) {
            const r = results[k]!;
            if (!r.ok) throw new Error(r.error);
            body[k] = r.value;
          }
          await props.save(body);
          setSaved(true);
        }}
      >
        {METADATA.map(([k, label, hint]) => {
          const id = `${props.idPrefix}-${k}`;
          const r = results[k]!;
          return (
            <div key={k} className="d-field">
              <label htmlFor={id}>
                {label} <small className="d-muted">({hint})</small>
              </label>
              <textarea
                id={id}
                className="d-code"
                style={{ minHeight: 90 }}
                spellCheck={false}
                value={texts[k]}
                aria-invalid={r.ok ? undefined : true}
                aria-describedby={`${id}-err`}
                onInput={(e) => {
                  setTexts({ ...texts, [k]: (e.target as HTMLTextAreaElement).value });
                  setSaved(false);
                }}
              />
              <small id={`${id}-err`} className="d-field-error" aria-live="polite">
                {r.ok ? '' : r.error}
              </small>
            </div>
          );
        })}
      </Form>
      {saved && (
        <p className="d-ok" role="status">
          Saved.
        </p>
      )}
    </Section>
  );
}
