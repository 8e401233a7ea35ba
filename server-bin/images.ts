import type Koa from 'koa';
import { IMAGE_PATH_PREFIX, type Core } from '../core/index.ts';

const IMAGE_ROUTE = new RegExp(`^${IMAGE_PATH_PREFIX}([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})$`);

/**
 * Serves images stored from base64 uploads (profile images, team images, project logos) at
 * `/images/{id}`. Only allow-listed raster types are ever stored; every answer
 * carries `x-content-type-options: nosniff` and a sandboxing CSP so a file can never run as a
 * page on this origin. The random id is the capability (as upstream's public image URLs): images
 * are public, immutable and cacheable.
 */
export function imagesMiddleware(core: Core): Koa.Middleware {
  return async (ctx, next) => {
    const m = IMAGE_ROUTE.exec(ctx.path);
    if (!m || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const image = await core.loadImage(m[1]!);
    ctx.set('x-content-type-options', 'nosniff');
    ctx.set('content-security-policy', "default-src 'none'; sandbox");
    if (!image) {
      ctx.status = 404;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'Image not found.';
      return;
    }
    ctx.set('cache-control', 'public, max-age=31536000, immutable');
    ctx.set('cross-origin-resource-policy', 'cross-origin');
    ctx.set('content-disposition', 'inline');
    ctx.type = image.contentType;
    ctx.body = image.bytes;
  };
}
