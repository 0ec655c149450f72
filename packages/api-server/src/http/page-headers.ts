/**
 * Headers of every HTML answer: its own Content-Security-Policy with
 * `frame-ancestors 'none'` added, and `X-Frame-Options: DENY` for browsers
 * that predate frame-ancestors, so no other site can show the page in a frame
 * and trick a click on it. `nosniff` keeps the type as declared.
 *
 * @example
 * new Response(html, { headers: htmlPageHeaders("default-src 'self'") })
 */
export function htmlPageHeaders(policy: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `${policy}; frame-ancestors 'none'`,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
  }
}
