/**
 * The dashboard assistant: chat threads per project and owner over any
 * OpenAI-compatible chat-completions endpoint, with the project's non-secret settings and
 * Gatehouse's docs as context and read-only tools. docs/assistant.md.
 */
export { postChat } from './post-chat.ts';
export { appendChatMessage } from './append-chat-message.ts';
export { getChatThread } from './get-chat-thread.ts';
export { listChatThreads } from './list-chat-threads.ts';
export { deleteChatThread } from './delete-chat-thread.ts';
export { getAssistantSettings } from './get-assistant-settings.ts';
export { updateAssistantSettings } from './update-assistant-settings.ts';
export { recordFirstOwner, operatorId } from './operator.ts';
export { aiQuery } from './ai-query.ts';
export type { AiOptions, AiDoc } from './options.ts';
