import type { SuggestEntity, Suggestion } from '../types'

/** A possible suggestion with the text it is ranked on. */
export interface Candidate extends Suggestion {
  /** The record's own fields (name, ipn, part numbers, aliases): a prefix ranks first, a substring last. */
  texts: readonly string[]
  /** More text whose words count for the word-prefix rank only (a component's description). */
  extra?: readonly string[]
}

/** The user text of a suggest, in the forms the ranking and the indexes need. */
export interface Needle {
  /** Trimmed, as typed: what index range scans compare with (NOCASE). */
  text: string
  /** Lower-cased: what ranking compares with. */
  lower: string
  /** Lower-cased words: each must start a word for the word-prefix rank. */
  words: string[]
}

export function toNeedle(q: string): Needle | null {
  const text = q.trim()
  if (!text) return null
  const lower = text.toLowerCase()
  return { text, lower, words: lower.split(/\s+/) }
}

/** How many candidates each index tier fetches: more than `limit`, so ranking has a choice. */
export function tierSize(limit: number): number {
  return Math.max(limit * 4, 20)
}

/**
 * 0: a field starts with the query; 1: every query word starts a word
 * (description included); 2: the query is inside a field; 3: no match (the
 * indexes return candidates, this decides).
 */
export function rankOf(c: Candidate, needle: Needle): number {
  const texts = c.texts.map((t) => t.toLowerCase())
  if (texts.some((t) => t.startsWith(needle.lower))) return 0
  const all = c.extra?.length ? [...texts, ...c.extra.map((t) => t.toLowerCase())] : texts
  if (needle.words.every((w) => all.some((t) => _startsWord(t, w)))) return 1
  return texts.some((t) => t.includes(needle.lower)) ? 2 : 3
}

/** Ranked candidates, at most `limit`, deduplicated by id: best rank, then shorter label, then label, then id. */
export function finish(candidates: Iterable<Candidate>, needle: Needle, limit: number): Suggestion[] {
  const best = new Map<string, { c: Candidate; rank: number }>()
  for (const c of candidates) {
    if (best.has(c.id)) continue
    const rank = rankOf(c, needle)
    if (rank < 3) best.set(c.id, { c, rank })
  }
  return [...best.values()]
    .sort((a, b) => a.rank - b.rank || a.c.label.length - b.c.label.length || _compare(a.c.label.toLowerCase(), b.c.label.toLowerCase()) || _compare(a.c.label, b.c.label) || _compare(a.c.id, b.c.id))
    .slice(0, limit)
    .map(({ c }) => _suggestion(c.id, c.entity, c.label, c.detail))
}

/** How many of `candidates` rank at `rank` or better. */
export function countRanked(candidates: Iterable<Candidate>, needle: Needle, rank: number): number {
  const ids = new Set<string>()
  for (const c of candidates) if (rankOf(c, needle) <= rank) ids.add(c.id)
  return ids.size
}

function _startsWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (at === 0 || !/[\p{L}\p{N}]/u.test(text[at - 1]!)) return true
  }
  return false
}

function _compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function _suggestion(id: string, entity: SuggestEntity, label: string, detail: string | undefined): Suggestion {
  return detail === undefined ? { id, entity, label } : { id, entity, label, detail }
}
