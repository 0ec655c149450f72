/**
 * Headers of a stored file sent back as it was stored (attachments, symbol
 * and footprint files): the browser neither guesses another type from the
 * bytes (`nosniff`) nor runs what it opens in this origin (`sandbox`), so a
 * file holding HTML or SVG with a script cannot act as a page of the server.
 * `content-disposition` only when a file name is given (KiCad's asset
 * downloads take the bytes as they are).
 */
export function downloadHeaders(contentType: string, disposition?: string): Record<string, string> {
  return {
    'content-type': contentType,
    ...(disposition === undefined ? {} : { 'content-disposition': disposition }),
    'x-content-type-options': 'nosniff',
    'content-security-policy': 'sandbox',
  }
}
