import { useMemo, useState, type ReactNode } from 'react';
import { Async, Section, useApi, useLoad } from '../kit.tsx';

/**
 * The API reference: the server's OpenAPI 3.1 document (`GET /api/v1/openapi.json`, generated
 * from the operation registry) rendered as a list of operations grouped by domain, each with its
 * access, parameters, body, responses and known errors, and the shared schemas below.
 *
 * Rendered here rather than with an OpenAPI renderer: the well-kept ones (Swagger UI, Redoc,
 * Scalar) bundle one to three megabytes of script and styles, several times the whole dashboard,
 * for a document this page shows in about two hundred lines; nothing is loaded from outside.
 */

type Schema = Record<string, any>;
interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  'x-access-types'?: string[];
  'x-known-errors'?: Array<{ code: string; status: number }>;
  'x-output-missing'?: boolean;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
}
interface OpenApiDocument {
  info: { title: string; version: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, Schema> };
}
interface Entry {
  method: string;
  path: string;
  op: OpenApiOperation;
}

/** Every operation of the document, in path order. */
export function operationsOf(doc: OpenApiDocument): Entry[] {
  const out: Entry[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) out.push({ method: method.toUpperCase(), path, op });
  }
  return out;
}

export function ApiReferencePage() {
  const api = useApi();
  const doc = useLoad(() => api.hostJson<OpenApiDocument>('/openapi.json'), []);
  return (
    <>
      <div className="d-top">
        <h1>API reference</h1>
      </div>
      <Async state={doc} label="Loading the API reference…">
        {(d) => <Reference doc={d} jsonUrl={`${api.prefix}/api/v1/openapi.json`} />}
      </Async>
    </>
  );
}

function Reference(props: { doc: OpenApiDocument; jsonUrl: string }) {
  const [filter, setFilter] = useState('');
  const all = useMemo(() => operationsOf(props.doc), [props.doc]);
  const needle = filter.trim().toLowerCase();
  const shown =
    needle === '' ? all : all.filter((e) => `${e.method} ${e.path} ${e.op.operationId} ${e.op.summary}`.toLowerCase().includes(needle));
  const groups = new Map<string, Entry[]>();
  for (const e of shown) {
    const tag = e.op.tags?.[0] ?? 'other';
    groups.set(tag, [...(groups.get(tag) ?? []), e]);
  }
  const schemas = props.doc.components?.schemas ?? {};
  return (
    <>
      <p className="d-muted">
        {props.doc.info.title} {props.doc.info.version}: {all.length} operations. Every path is also served under <code>/api/latest</code>.{' '}
        The document itself: <a href={props.jsonUrl}>openapi.json</a> (OpenAPI 3.1).
      </p>
      <div className="d-field">
        <label htmlFor="api-filter">Filter operations</label>
        <input
          id="api-filter"
          type="search"
          defaultValue=""
          placeholder="users, POST, /teams…"
          onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
        />
      </div>
      <p className="d-muted" aria-live="polite">
        {shown.length === all.length ? `${all.length} operations` : `${shown.length} of ${all.length} operations`}
      </p>
      {[...groups.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([tag, entries]) => (
          <Section key={tag} title={tag}>
            {entries.map((e) => (
              <Operation key={`${e.method} ${e.path}`} entry={e} />
            ))}
          </Section>
        ))}
      <Section title="Schemas">
        {Object.entries(schemas).map(([name, schema]) => (
          <div key={name} id={`schema-${name}`} className="d-card" style={{ marginBottom: 8 }}>
            <h3 style={{ margin: '0 0 4px' }}>{name}</h3>
            <SchemaView schema={schema} />
          </div>
        ))}
      </Section>
    </>
  );
}

function Operation(props: { entry: Entry }) {
  const { method, path, op } = props.entry;
  const params = op.parameters ?? [];
  const body = op.requestBody?.content?.['application/json']?.schema;
  return (
    <details
      className="d-api-op"
      data-operation-id={op.operationId}
      style={{ borderBottom: '1px solid var(--d-border, #ddd)', padding: '6px 0' }}
    >
      <summary>
        <code style={{ fontWeight: 600, display: 'inline-block', minWidth: '4.5em' }}>{method}</code> <code>{path}</code>{' '}
        <span className="d-muted">{op.summary}</span>
      </summary>
      <div style={{ padding: '8px 0 8px 1em' }}>
        <p className="d-muted" style={{ margin: '0 0 6px' }}>
          Operation <code>{op.operationId}</code> · access: {(op['x-access-types'] ?? []).join(', ') || 'public'}
        </p>
        {op.description &&
          op.description !== op.summary &&
          op.description.split('\n\n').map((para, i) => <p key={i}>{inlineMarkdown(para)}</p>)}
        {params.length > 0 && (
          <>
            <h4>Parameters</h4>
            <ul>
              {params.map((p) => (
                <li key={`${p.in}:${p.name}`}>
                  <code>{p.name}</code> ({p.in}
                  {p.required ? ', required' : ''}): <SchemaView schema={p.schema ?? {}} inline />
                </li>
              ))}
            </ul>
          </>
        )}
        {body && (
          <>
            <h4>Body</h4>
            <SchemaView schema={body} />
          </>
        )}
        <h4>Responses</h4>
        {op['x-output-missing'] && <p className="d-muted">The success output of this operation is not declared yet.</p>}
        <ul>
          {Object.entries(op.responses ?? {}).map(([status, r]) => {
            const [type, media] = Object.entries(r.content ?? {})[0] ?? [];
            return (
              <li key={status}>
                <code>{status}</code> {r.description}
                {type && media?.schema && !status.startsWith('4') && !status.startsWith('5') && (
                  <div>
                    {type !== 'application/json' && <span className="d-muted">{type} </span>}
                    <SchemaView schema={media.schema} />
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </details>
  );
}

/** A JSON Schema as a compact, readable type: objects as nested field lists, `$ref`s as links. */
function SchemaView(props: { schema: Schema; inline?: boolean }): ReactNode {
  const s = props.schema;
  if (typeof s.$ref === 'string') {
    const name = s.$ref.replace('#/components/schemas/', '');
    return (
      <a
        href={`#schema-${name}`}
        onClick={(e) => {
          e.preventDefault();
          document.getElementById(`schema-${name}`)?.scrollIntoView();
        }}
      >
        <code>{name}</code>
      </a>
    );
  }
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
    const options = (s.anyOf ?? s.oneOf) as Schema[];
    return (
      <>
        {options.map((o, i) => (
          <span key={i}>
            {i > 0 && ' | '}
            <SchemaView schema={o} inline={props.inline} />
          </span>
        ))}
      </>
    );
  }
  if ('const' in s) return <code>{JSON.stringify(s.const)}</code>;
  if (Array.isArray(s.enum)) return <code>{s.enum.map((x: unknown) => JSON.stringify(x)).join(' | ')}</code>;
  if (s.type === 'array')
    return (
      <>
        array of <SchemaView schema={s.items ?? {}} inline={props.inline} />
      </>
    );
  if (s.type === 'object' && s.properties && !props.inline) {
    const required = new Set<string>(s.required ?? []);
    return (
      <ul style={{ margin: '2px 0' }}>
        {Object.entries(s.properties as Record<string, Schema>).map(([name, p]) => (
          <li key={name}>
            <code>{name}</code>
            {required.has(name) ? '' : '?'}: <SchemaView schema={p} />
          </li>
        ))}
      </ul>
    );
  }
  if (s.type === 'object') return <code>object</code>;
  if (typeof s.type === 'string')
    return (
      <code>
        {s.type}
        {s.format ? ` (${s.format})` : ''}
      </code>
    );
  return <code>any JSON</code>;
}

/**
 * The inline CommonMark an OpenAPI description uses (OpenAPI 3.1 §4.8: descriptions are
 * CommonMark): `code` spans and **strong** text as elements, the rest as text. No HTML is
 * interpreted.
 */
export function inlineMarkdown(text: string): ReactNode[] {
  return text
    .split(/(`[^`]+`|\*\*[^*]+\*\*)/)
    .filter(Boolean)
    .map((piece, i) =>
      piece.startsWith('`') && piece.endsWith('`') && piece.length > 1 ? (
        <code key={i}>{piece.slice(1, -1)}</code>
      ) : piece.startsWith('**') && piece.endsWith('**') && piece.length > 4 ? (
        <strong key={i}>{piece.slice(2, -2)}</strong>
      ) : (
        piece
      ),
    );
}
