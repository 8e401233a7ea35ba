// /sign-in → the project's hosted sign-in page (its URL holds the project id, known at run time).
import { exampleAuth } from '../../lib/gatehouse.mjs';

export const dynamic = 'force-dynamic';

export async function GET(request) {
  const { signInUrl } = await exampleAuth();
  const target = new URL(signInUrl, request.url);
  target.search = new URL(request.url).search;
  return Response.redirect(target, 307);
}
