/**
 * Gatehouse's mark: a gate in a house outline on the accent square (32×32 SVG, ~250 bytes).
 * Used as the favicon of every Gatehouse page (inlined as a data: URL, so no request is made
 * under any mount prefix) and beside the name in the dashboard. A plain string: the server
 * imports it without React.
 */
export const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#2f5bea"/><path d="M6 27V13.5L16 6l10 7.5V27h-6v-8a4 4 0 0 0-8 0v8z" fill="#fff"/></svg>';

/** The mark as a `data:` URL (for `<link rel="icon">` and `<img>`). */
export const LOGO_DATA_URL = `data:image/svg+xml,${encodeURIComponent(LOGO_SVG)}`;
