import type { SystemPromptId } from './query-schemas.ts';

/**
 * What each of upstream's prompt ids asks of the model, in one line added to the assistant's own
 * system prompt (core/ai-chat/context.ts). Upstream's prompts are its own text; these are
 * Gatehouse's, about Gatehouse.
 */
export const TASKS: Readonly<Record<SystemPromptId, string>> = {
  'command-center-ask-ai':
    "Task: answer a question asked from the dashboard's search box, briefly, pointing to the page or setting that helps.",
  'docs-ask-ai': 'Task: answer a question about Gatehouse from its documentation, citing the page.',
  'wysiwyg-edit': 'Task: edit the given content as asked and answer with the edited content only.',
  'email-wysiwyg-editor': 'Task: edit the given email as asked and answer with the edited email only.',
  'email-assistant-template': 'Task: help write an email template (a React Email component) for this project.',
  'email-assistant-theme': 'Task: help write an email theme (a React Email layout component) for this project.',
  'email-assistant-draft': "Task: help write an email draft for this project's users.",
  'create-dashboard': "Task: describe a dashboard of this project's figures (users, sign-ins, teams) that answers the owner's question.",
  'run-query': "Task: explain how to obtain the figures the owner asks for from this project's data through the API.",
  'build-analytics-query': "Task: explain how to obtain the figures the owner asks for from this project's data through the API.",
  'rewrite-template-source': 'Task: rewrite the given email template source as asked and answer with the source only.',
};
