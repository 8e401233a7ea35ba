/**
 * Image attachments of `/ai/query` messages: at most 3 images per message, each at most 3 MiB
 * decoded (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/ai/image-limits.ts; the same limits and wording).
 */
export const MAX_IMAGES_PER_MESSAGE = 3;
export const MAX_IMAGE_BYTES_PER_FILE = 3 * 1024 * 1024;

/** Decoded bytes of a base64 data URL (or bare base64), within 2 bytes. */
export function base64ByteLength(dataUrl: string): number {
  const comma = dataUrl.indexOf(',');
  const base64 = comma === -1 ? dataUrl : dataUrl.slice(comma + 1);
  if (base64.length === 0) return 0;
  const padding = base64.endsWith('==') ? 2 : Number(base64.endsWith('='));
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

/** Null when every message's images are within the limits, else the reason in upstream's words. */
export function imageAttachmentProblem(messages: readonly { content: unknown }[]): string | null {
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    let images = 0;
    for (const part of message.content as unknown[]) {
      if (typeof part !== 'object' || part === null || (part as { type?: unknown }).type !== 'image') continue;
      images++;
      if (images > MAX_IMAGES_PER_MESSAGE) return `Maximum ${MAX_IMAGES_PER_MESSAGE} images per message.`;
      const image = (part as { image?: unknown }).image;
      if (typeof image === 'string') {
        const bytes = base64ByteLength(image);
        if (bytes > MAX_IMAGE_BYTES_PER_FILE)
          return `Image exceeds ${MAX_IMAGE_BYTES_PER_FILE / (1024 * 1024)}MB limit (${(bytes / 1024 / 1024).toFixed(2)}MB).`;
      }
    }
  }
  return null;
}
