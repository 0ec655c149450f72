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
 * The ranks a candidate can have, best first: a field starts with the query;
 * every query word is a whole word (description included); every query word
 * starts a word; the query is inside a field. Anything else matches not (the
 * indexes return candidates, rankOf decides). A word typed in full ranks
 * above the longer words it starts: `resistor 0603` puts parts in 0603 before
 * those whose IPN number starts 0603.
 */
export const RANK = { fieldPrefix: 0, wholeWords: 1, wordPrefixes: 2, substring: 3 } as const
const NO_MATCH = 4

export function rankOf(c: Candidate, needle: Needle): number {
  const texts = c.texts.map((t) => t.toLowerCase())
  if (texts.some((t) => t.startsWith(needle.lower))) return RANK.fieldPrefix
  const all = c.extra?.length ? [...texts, ...c.extra.map((t) => t.toLowerCase())] : texts
  if (needle.words.every((w) => all.some((t) => _startsWord(t, w)))) {
    return needle.words.every((w) => all.some((t) => _startsWord(t, w, true))) ? RANK.wholeWords : RANK.wordPrefixes
  }
  return texts.some((t) => t.includes(needle.lower)) ? RANK.substring : NO_MATCH
}

/** Ranked candidates, at most `limit`, deduplicated by id: best rank, then shorter label, then label, then id. */
export function finish(candidates: Iterable<Candidate>, needle: Needle, limit: number): Suggestion[] {
  const best = new Map<string, { c: Candidate; rank: number }>()
  for (const c of candidates) {
    if (best.has(c.id)) continue
    const rank = rankOf(c, needle)
    if (rank < NO_MATCH) best.set(c.id, { c, rank })
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

/** Whether `word` starts a word of `text` (`whole`: is one, ending where a word ends). */
function _startsWord(text: string, word: string, whole = false): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (at > 0 && _wordChar(text[at - 1]!)) continue
    const end = at + word.length
    if (!whole || end === text.length || !_wordChar(text[end]!)) return true
  }
  return false
}

function _wordChar(char: string): boolean {
  return /[\p{L}\p{N}]/u.test(char)
}

function _compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function _suggestion(id: string, entity: SuggestEntity, label: string, detail: string | undefined): Suggestion {
  return detail === undefined ? { id, entity, label } : { id, entity, label, detail }
}
