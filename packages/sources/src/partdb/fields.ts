import type { ComponentStatus, PeerPart, SourceLifecycle } from '@complib/core'
import { clip } from '../_internal/answer-fields'

/*
 * Reading Part-DB's fields (exported for the tests), coded against
 * Part-DB-server's source as of commit 1521c63c (2026-08-19):
 * - src/Entity/Parts/ManufacturingStatus.php (`announced`, `active`, `nrfnd`,
 *   `eol`, `discontinued`, `''` for not set);
 * - src/Entity/Parts/PartTraits/AdvancedPropertyTrait.php (`tags`, one
 *   comma-separated string);
 * - src/Entity/Parameters/AbstractParameter.php (`value_text`, `value_min`,
 *   `value_typical`, `value_max`, and `formatted`, whose layout the value below
 *   follows);
 * - src/Entity/PriceInformations/Pricedetail.php (`price`, a decimal string,
 *   "for the price related quantity"; `price_related_quantity`);
 * - src/Entity/Attachments/Attachment.php (`picture`, `3d_model`,
 *   `external_path`, `original_filename`).
 */

/**
 * The library's status from ManufacturingStatus: `announced` (not in
 * production yet) is `draft`; `nrfnd` is `nrnd`; `eol` ("will become
 * discontinued soon", still to be had) is `nrnd` too; `discontinued` is
 * `obsolete`; not set (`''`, null) says nothing: null.
 */
export function partdbStatus(value: string | null | undefined): ComponentStatus | null {
  switch (value?.trim().toLowerCase()) {
    case 'announced':
      return 'draft'
    case 'active':
      return 'active'
    case 'nrfnd':
    case 'eol':
      return 'nrnd'
    case 'discontinued':
      return 'obsolete'
    default:
      return null
  }
}

/** The same in a source's lifecycle words: `announced` is `preview`, not set is `unknown`. */
export function partdbLifecycle(value: string | null | undefined): SourceLifecycle {
  const status = partdbStatus(value)
  return status === null ? 'unknown' : status === 'draft' ? 'preview' : status
}

/** Tags from Part-DB's one comma-separated string: trimmed, each once, empty ones dropped. */
export function partdbTags(value: string | null | undefined): string[] {
  const out: string[] = []
  for (const piece of (value ?? '').split(',')) {
    const tag = clip(piece, 100)
    if (tag && !out.includes(tag)) out.push(tag)
  }
  return out.slice(0, 100)
}

/**
 * A parameter's value as one text, laid out as Part-DB's own `formatted`
 * but without the unit (that goes beside it): the text alone when there is
 * no number; else the typical value, the range after it in brackets
 * ("3.3 (2.7 ... 5.5)"), "min. x" or "max. y" for a one-sided range, a range
 * alone without a typical value ("-40 ... 125"), and the text after the
 * numbers in square brackets ("100 [X7R]").
 */
export function partdbParameterValue(p: { value_text?: string | null; value_min?: number | null; value_typical?: number | null; value_max?: number | null }): string {
  const text = p.value_text?.trim() ?? ''
  const shown = (n: number | null | undefined) => (typeof n === 'number' && Number.isFinite(n) ? String(n) : null)
  const [min, typ, max] = [shown(p.value_min), shown(p.value_typical), shown(p.value_max)] as const
  if (min === null && typ === null && max === null) return text
  const range = min !== null && max !== null ? `${min} ... ${max}` : max !== null ? `max. ${max}` : min !== null ? `min. ${min}` : null
  const numbers = typ === null ? (range ?? '') : range ? `${typ} (${range})` : typ
  return text ? `${numbers} [${text}]` : numbers
}

/**
 * The price of one unit: Part-DB's `price` is "for the price related
 * quantity" (a price per 100 pieces, say), a decimal string. Null when it is
 * not a price.
 */
export function partdbUnitPrice(price: string | number | null | undefined, perQuantity: number | null | undefined): number | null {
  const amount = typeof price === 'number' ? price : Number(String(price ?? '').trim() || Number.NaN)
  const per = typeof perQuantity === 'number' && Number.isFinite(perQuantity) && perQuantity > 0 ? perQuantity : 1
  const unit = amount / per
  return Number.isFinite(unit) && unit >= 0 ? unit : null
}

const DOCUMENT_EXTENSIONS = /\.(pdf|docx?|odt|rtf|txt|md|html?|xlsx?|ods|csv)$/i

/**
 * What an attachment is, from its type's name and its own (Part-DB's
 * attachment types are the user's own: "Datasheet", "Datenblatt", "3D
 * model"…), then from what Part-DB says of the file. `picture` is trusted for
 * an uploaded file or a link with an extension only: Part-DB also calls every
 * link without one a picture.
 */
export function partdbAttachmentKind(a: { name: string; type: string | null; picture: boolean; model: boolean; external: string | null; filename: string | null }): PeerPart['attachments'][number]['kind'] {
  const words = `${a.type ?? ''} ${a.name}`
  if (a.model) return 'cad'
  if (/data\s*-?\s*sheet|datenblatt|fiche technique/i.test(words)) return 'datasheet'
  if (/\b(3d|cad|step|kicad|footprint|symbol|model)\b/i.test(words)) return 'cad'
  const externalPath = a.external ? _pathOf(a.external) : null
  if (a.picture && (externalPath === null || /\.[a-z0-9]+$/i.test(externalPath))) return 'image'
  if (DOCUMENT_EXTENSIONS.test(externalPath ?? '') || DOCUMENT_EXTENSIONS.test(a.filename ?? '')) return 'document'
  return 'other'
}

function _pathOf(url: string): string {
  try {
    return new URL(url).pathname
  } catch {
    return url
  }
}
