import { createHash, timingSafeEqual } from 'node:crypto'

/**
 * The capability in an uploaded datasheet's KiCad link (decision 0639): a
 * digest of the attachment's id and of its content's SHA-256. Only someone who
 * was given the link, or who already holds the exact bytes and knows the
 * attachment's id, can form it; it opens that one attachment's content and
 * nothing else, stays the same across restarts and across servers sharing a
 * database, and stops working when the attachment is deleted. No key is kept.
 */
export function datasheetCapability(attachmentId: string, sha256: string): string {
  return createHash('sha256').update(`complib kicad datasheet\0${attachmentId}\0${sha256}`).digest('base64url')
}

/** The path of an uploaded datasheet's capability link. */
export function datasheetPath(attachmentId: string, sha256: string): string {
  return `/api/attachments/${attachmentId}/datasheet/${datasheetCapability(attachmentId, sha256)}`
}

/** Whether `given` is the capability of this attachment (compared in constant time). */
export function isDatasheetCapability(given: string, attachmentId: string, sha256: string): boolean {
  const expected = Buffer.from(datasheetCapability(attachmentId, sha256))
  const actual = Buffer.from(given)
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}
