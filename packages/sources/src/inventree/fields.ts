import type { PeerPart } from '@complib/core'
import { cleanText, clip } from '../_internal/answer-fields'

/*
 * Reading InvenTree's fields: a part's `tags` and free-text `keywords`
 * (part/serializers.py, PartSerializer), an attachment's file name and
 * comment (common/serializers.py, AttachmentSerializer), and Decimal fields,
 * rendered as numbers or as text depending on the version.
 */

/**
 * Tags from InvenTree's own `tags`, then its `keywords`, each once (case
 * aside). Keywords are free text, written as a list ("op amp, dual, smd") or
 * as words ("opamp dual smd"): with a comma or semicolon they are split
 * there, so a keyword of several words stays whole; without, on spaces.
 */
export function inventreeTags(tags: readonly string[] | null | undefined, keywords: string | null | undefined): string[] {
  const text = keywords?.trim() ?? ''
  const words = text ? text.split(/[,;]/.test(text) ? /[,;]/ : /\s+/) : []
  const out: string[] = []
  const seen = new Set<string>()
  for (const raw of [...(tags ?? []), ...words]) {
    const tag = clip(raw, 100)
    if (!tag || seen.has(tag.toLowerCase())) continue
    seen.add(tag.toLowerCase())
    out.push(tag)
  }
  return out.slice(0, 100)
}

type PeerAttachment = PeerPart['attachments'][number]

const IMAGE = /\.(png|jpe?g|gif|bmp|webp|svg|tiff?)$/i
const CAD = /\.(step|stp|wrl|stl|iges|igs|dxf|kicad_(mod|sym|pcb)|lib|brd|sch|f3d)$/i
const DOCUMENT = /\.(pdf|txt|md|rtf|docx?|odt|xlsx?|ods|csv|html?)$/i

/** 'datasheet' when the file's name or the comment says so; else by the file's (or link's) extension; else 'other'. */
export function inventreeAttachmentKind(filename: string | null | undefined, comment: string | null | undefined, url: string): PeerAttachment['kind'] {
  if (/data\s*-?\s*sheet|datenblatt/i.test(`${filename ?? ''} ${comment ?? ''}`)) return 'datasheet'
  const named = filename ?? lastSegment(url) ?? ''
  if (IMAGE.test(named)) return 'image'
  if (CAD.test(named)) return 'cad'
  if (DOCUMENT.test(named)) return 'document'
  return 'other'
}

/** The last segment of a URL's or media path's path, decoded, or null for none. */
export function lastSegment(path: string | null | undefined): string | null {
  const text = cleanText(path)
  if (!text) return null
  let pathname = text
  try {
    pathname = new URL(text, 'http://x/').pathname
  } catch {
    // the text as it is
  }
  const last = pathname.split('/').filter(Boolean).at(-1)
  if (!last) return null
  try {
    return decodeURIComponent(last)
  } catch {
    return last
  }
}

/** A Decimal field as a finite number, or null. */
export function decimal(value: number | string | null | undefined): number | null {
  const n = typeof value === 'string' ? (value.trim() === '' ? Number.NaN : Number(value)) : (value ?? Number.NaN)
  return Number.isFinite(n) ? n : null
}

/** A Decimal field as a whole number (rounded down), or null. */
export function whole(value: number | string | null | undefined): number | null {
  const n = decimal(value)
  return n === null ? null : Math.floor(n + 1e-9)
}
