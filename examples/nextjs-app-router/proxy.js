// Route protection before rendering (Next.js 16 `proxy`, formerly `middleware`): no session
// cookie on /protected → the sign-in page, then back.
import { NextResponse } from 'next/server';
import { protectRoutes } from 'gatehouse-server/next-middleware';

const protect = protectRoutes({ signInUrl: '/sign-in', protectedPaths: ['/protected'] });

export function proxy(request) {
  return protect(request) ?? NextResponse.next();
}

export const config = { matcher: ['/protected/:path*'] };
