import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { AssistantSettingsBodySchema } from './schemas.ts';
import { saveAiSettings, viewAiSettings } from './settings.ts';
import { isOperator } from './operator.ts';
import { AssistantSettingsOutput } from './outputs.ts';
import { ERRORS } from './get-assistant-settings.ts';

/**
 * Updates the assistant's base URL, model and API key (the operator only), answering the
 * settings as the read shows them. A string sets a value, null clears it (back to the host's
 * GATEHOUSE_AI_* value); the key is write-only and sealed at rest (AES-256-GCM under a key derived
 * from the server secret). The base URL may be a loopback or private address: this is the
 * operator's own deployment setting, not a tenant's (docs/assistant.md).
 */
export const updateAssistantSettings = defineOperation({
  id: 'aiChat.updateSettings',
  method: 'PATCH',
  path: '/internal/server-settings/assistant',
  summary: "Change the dashboard assistant's model endpoint (operator only).",
  access: ['client', 'server', 'admin'],
  input: { body: AssistantSettingsBodySchema },
  output: AssistantSettingsOutput,
  errors: [...ERRORS, 'AI_SETTINGS_OPERATOR_ONLY'],
  async run(ctx, { body }) {
    if (!(await isOperator(ctx))) throw new KnownError('AI_SETTINGS_OPERATOR_ONLY');
    await saveAiSettings(ctx.runtime, ctx.db, { baseUrl: body.base_url, model: body.model, apiKey: body.api_key });
    return { ...(await viewAiSettings(ctx.runtime, ctx.db)), editable: true };
  },
});
