import * as v from 'valibot';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import type { OperationContext } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { uuid } from '../lib/random.ts';
import { deleteImage, findImage, insertImage } from './queries.ts';

/**
 * Raster types Gatehouse stores and serves, each with the leading bytes its data must start with.
 * SVG is deliberately absent: an SVG can carry script, and these images are served from the
 * Gatehouse origin.
 */
const ALLOWED: Record<string, (b: Buffer) => boolean> = {
  'image/png': (b) => b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) =>
    b.length > 6 && (b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a'),
  'image/webp': (b) => b.length > 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

/** Largest decoded image Gatehouse stores, in bytes. */
export const MAX_IMAGE_BYTES = 1_000_000;

const DATA_URL = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/]+=*)$/i;

/** The path a stored image is served at, under the server's base URL. */
export const IMAGE_PATH_PREFIX = '/images/';

/** Decodes a base64 image `data:` URL, or null when it is not one Gatehouse accepts. */
export function parseImageDataUrl(value: string, maxBytes = MAX_IMAGE_BYTES): { contentType: string; bytes: Buffer } | null {
  const m = DATA_URL.exec(value);
  if (!m) return null;
  const contentType = m[1]!.toLowerCase().replace('image/jpg', 'image/jpeg');
  const check = ALLOWED[contentType];
  if (!check) return null;
  const bytes = Buffer.from(m[2]!, 'base64');
  if (bytes.length === 0 || bytes.length > maxBytes || !check(bytes)) return null;
  return { contentType, bytes };
}

/** Whether a value is an acceptable image: an http(s) URL, or an allowed base64 image. */
export function isImageUrlValue(value: string, maxBytes = MAX_IMAGE_BYTES): boolean {
  if (value.startsWith('data:')) return parseImageDataUrl(value, maxBytes) !== null;
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * An image field (profile image, team image, project logo): null, an http(s) URL, or a base64
 * PNG, JPEG, GIF or WebP `data:` URL of at most `maxBytes` decoded bytes whose content matches its
 * type; anything else is a SCHEMA_ERROR "Invalid profile image URL" (upstream's wording).
 */
export function imageUrlSchema(maxBytes = MAX_IMAGE_BYTES, message = 'Invalid profile image URL') {
  return v.nullable(
    v.pipe(
      v.string(),
      v.maxLength(Math.ceil(maxBytes / 3) * 4 + 64, 'is too long'),
      v.check((s) => isImageUrlValue(s, maxBytes), message),
    ),
  );
}

/**
 * Stores each base64 image of `fields` in `body` and replaces it with the image's own URL
 * (`<base url>/images/<id>`), as upstream does with uploaded images instead of echoing `data:`
 * URLs back; http(s) URLs and null pass through. Runs in the caller's transaction when given one.
 *
 * @returns a shallow copy of `body` with the replaced values.
 * @throws KnownError SCHEMA_ERROR for a `data:` URL that is not an allowed image (validation
 *   normally refuses it first).
 */
export async function storeDataImages<T extends Record<string, unknown>>(
  ctx: OperationContext,
  projectId: string,
  body: T,
  fields: readonly string[],
): Promise<T> {
  let out: T = body;
  for (const field of fields) {
    const value = body[field];
    if (typeof value !== 'string' || !value.startsWith('data:')) continue;
    const image = parseImageDataUrl(value);
    if (!image) throw new KnownError('SCHEMA_ERROR', { message: `body.${field}: Invalid profile image URL` });
    const id = uuid();
    await insertImage(ctx.db, {
      id,
      project_id: projectId,
      content_type: image.contentType,
      data_base64: image.bytes.toString('base64'),
      byte_length: image.bytes.length,
      created_at: ctx.now,
    });
    out = { ...out, [field]: `${ctx.runtime.baseUrl}${IMAGE_PATH_PREFIX}${id}` };
  }
  return out;
}

/** A stored image for serving (content type and bytes), or null. */
export async function loadImage(db: Kysely<Database>, id: string): Promise<{ contentType: string; bytes: Buffer } | null> {
  const row = await findImage(db, id);
  if (!row || !ALLOWED[row.content_type]) return null;
  return { contentType: row.content_type, bytes: Buffer.from(row.data_base64, 'base64') };
}

/**
 * Deletes the stored image an old field value pointed at, when a change replaced it: each field
 * keeps at most one stored image, so repeated uploads do not grow the database. Values that are
 * not this server's image URLs are ignored.
 */
export async function releaseReplacedImages(
  ctx: OperationContext,
  projectId: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  fields: readonly string[],
): Promise<void> {
  const prefix = `${ctx.runtime.baseUrl}${IMAGE_PATH_PREFIX}`;
  for (const field of fields) {
    const old = before[field];
    if (typeof old !== 'string' || !old.startsWith(prefix) || after[field] === undefined || after[field] === old) continue;
    await deleteImage(ctx.db, projectId, old.slice(prefix.length));
  }
}
