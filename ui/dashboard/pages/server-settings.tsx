import { useState } from 'react';
import { Async, ConfirmButton, Field, Form, Section, useApi, useLoad } from '../kit.tsx';

/** `GET /internal/server-settings/assistant` as the operator sees it. */
export interface AssistantSettings {
  configured: boolean;
  editable: boolean;
  base_url?: string | null;
  model?: string | null;
  api_key_set?: boolean;
  source?: { base_url: Source; model: Source; api_key: Source };
}
type Source = 'dashboard' | 'environment' | null;

const fromWhere = (s: Source | undefined) =>
  s === 'dashboard' ? 'saved here' : s === 'environment' ? 'from the server environment' : 'not set';

/**
 * The server's own settings (deployment-wide, the operator only): the dashboard assistant's
 * model endpoint. Values saved here win over GATEHOUSE_AI_*; the API key is write-only.
 */
export function ServerSettingsPage() {
  const api = useApi();
  const settings = useLoad(() => api.internal('aiChat.getSettings'), []);
  return (
    <>
      <div className="d-top">
        <h1>Server settings</h1>
      </div>
      <Async state={settings} label="Loading server settings…">
        {(s) =>
          s.editable ? (
            <AssistantForm settings={s} reload={settings.reload} />
          ) : (
            <p className="d-empty">Only the server's operator (the first dashboard owner) can change server settings.</p>
          )
        }
      </Async>
    </>
  );
}

function AssistantForm(props: { settings: AssistantSettings; reload: () => void }) {
  const api = useApi();
  const s = props.settings;
  const [baseUrl, setBaseUrl] = useState(s.base_url ?? '');
  const [model, setModel] = useState(s.model ?? '');
  const [apiKey, setApiKey] = useState('');
  const urlError =
    baseUrl.trim() && !/^https?:\/\/\S+$/.test(baseUrl.trim()) ? 'Use an http or https URL, e.g. http://127.0.0.1:11434/v1.' : null;
  return (
    <Section
      title="Dashboard assistant"
      description={
        <>
          Any endpoint that speaks the OpenAI chat-completions API: a hosted provider, or a local model server (llama.cpp, Ollama, vLLM).
          Loopback and private addresses are allowed here: this is the server's own setting, not a project's. The assistant is{' '}
          {s.configured ? <strong>on</strong> : <strong>off</strong>}.
        </>
      }
    >
      <Form
        label="Assistant endpoint"
        submit="Save"
        disabled={!!urlError}
        disabledReason="Fix the base URL first."
        onDone={() => {
          setApiKey('');
          props.reload();
        }}
        onSubmit={() =>
          api.internal('aiChat.updateSettings', {
            body: {
              base_url: baseUrl.trim() || null,
              model: model.trim() || null,
              ...(apiKey ? { api_key: apiKey } : {}),
            },
          })
        }
      >
        <Field
          label="Base URL"
          name="base_url"
          value={baseUrl}
          onChange={setBaseUrl}
          error={urlError}
          placeholder="https://api.openai.com/v1"
          hint={`Currently ${fromWhere(s.source?.base_url)}. Empty: use the server environment's.`}
        />
        <Field
          label="Model"
          name="model"
          value={model}
          onChange={setModel}
          placeholder="gpt-4o-mini"
          hint={`Currently ${fromWhere(s.source?.model)}.`}
        />
        <Field
          label="API key"
          name="api_key"
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={setApiKey}
          placeholder={s.api_key_set ? 'A key is set; type to replace it' : 'None'}
          hint={`Write-only: it is stored encrypted and never shown again. Currently ${s.api_key_set ? `set (${fromWhere(s.source?.api_key)})` : 'not set'}.`}
        />
      </Form>
      {s.source?.api_key === 'dashboard' && (
        <div className="d-row" style={{ marginTop: 12 }}>
          <ConfirmButton
            label="Remove saved key"
            question="Remove the API key saved here? The server environment's key, if any, applies again."
            onConfirm={async () => {
              await api.internal('aiChat.updateSettings', { body: { api_key: null } });
              props.reload();
            }}
          />
        </div>
      )}
    </Section>
  );
}
