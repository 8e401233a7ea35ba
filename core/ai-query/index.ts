/** `POST /ai/query/{mode}`: upstream's one-shot AI endpoint over the assistant's model endpoint. docs/assistant.md. */
export { aiQuery } from './query.ts';
