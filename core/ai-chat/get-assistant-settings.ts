import { defineOperation } from '../operations/define.ts';
import { viewAiSettings } from './settings.ts';
import { isOperator } from './operator.ts';
import { AssistantSettingsOutput } from './outputs.ts';

/** The refusals both assistant-settings operations declare. */
export const ERRORS = ['EXPECTED_INTERNAL_PROJECT', 'USER_AUTHENTICATION_REQUIRED'] as const;

/**
 * Reads the assistant settings (internal project, a signed-in owner or the admin key):
 * `{configured, editable}` for every owner (the dashboard hides the assistant when it is
 * off), plus `{base_url, model, api_key_set, source}` for the operator (see operator.ts). The
 * API key is never returned. A Gatehouse extension.
 */
export const getAssistantSettings = defineOperation({
  id: 'aiChat.getSettings',
  method: 'GET',
  path: '/internal/server-settings/assistant',
  summary: "Read the dashboard assistant's server settings (never the key).",
  access: ['client', 'server', 'admin'],
  input: {},
  output: AssistantSettingsOutput,
  errors: [...ERRORS],
  async run(ctx) {
    const editable = await isOperator(ctx);
    const view = await viewAiSettings(ctx.runtime, ctx.db);
    return editable ? { ...view, editable } : { configured: view.configured, editable };
  },
});
