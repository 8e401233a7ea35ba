export { uploadEventBatch } from './upload-event-batch.ts';
