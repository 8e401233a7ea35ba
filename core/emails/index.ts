export { enqueueEmail, type OutgoingEmail } from './outbox.ts';
export { sendBuiltInEmail, renderBuiltInEmail } from './send-built-in.ts';
export { linkWithCode, BUILT_IN_EMAIL_KINDS, type BuiltInEmailKind } from './built-in.ts';
export { assertCallbackUrlTrusted } from './callback-url.ts';
export { startEmailWorker, stopEmailWorker, kickEmailWorker, emailWorkerIdle } from './worker.ts';
