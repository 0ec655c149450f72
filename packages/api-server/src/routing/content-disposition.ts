/**
 * `Content-Disposition: attachment` for a user-chosen file name. Header values
 * are Latin-1 without control characters, so the name goes twice: a plain
 * ASCII fallback (`filename=`, other characters as `_`) and the exact name in
 * RFC 8187 form (`filename*=UTF-8''…`). A lone surrogate, which UTF-8 cannot
 * carry (and which makes encodeURIComponent throw), becomes U+FFFD.
 *
 * @example
 * attachmentDisposition('Ωmega "v2".pdf') // attachment; filename="_mega _v2_.pdf"; filename*=UTF-8''%CE%A9mega%20%22v2%22.pdf
 */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_')
  const wellFormed = name.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
  // RFC 8187 attr-char leaves out ' ( ) * as well, which encodeURIComponent keeps.
  const encoded = encodeURIComponent(wellFormed).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`
}
