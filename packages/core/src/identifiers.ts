/**
 * How identifiers (ipn, and the unique names of tags, manufacturers and their
 * aliases, locations and parameter types) compare: as people read them
 * (decision 0420). Input is stored as typed after NFC and
 * trimming; characters nobody can see or that reorder the text on screen are
 * refused; and two identifiers are the same when their foldKey is.
 */

/**
 * Characters refused in an identifier: controls (Cc), format characters (Cf:
 * zero-width space/joiner/non-joiner, word joiner, BOM, soft hyphen, the
 * bidirectional marks, embeddings, overrides and isolates, the Arabic letter
 * mark) and the line and paragraph separators. Each is invisible or changes
 * how the text around it is shown, so two identifiers that look the same
 * could differ by one.
 */
const REFUSED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u

/**
 * The first character `value` may not hold in an identifier, as `U+200B`, or
 * null when there is none.
 *
 * @example
 * findRefusedCharacter('R\u200b1') // 'U+200B'
 */
export function findRefusedCharacter(value: string): string | null {
  const match = REFUSED.exec(value)
  return match ? `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : null
}

/**
 * The comparison key of an identifier: two identifiers are the same one when
 * their keys are equal, and the database holds the keys under unique indexes.
 *
 * It approximates Unicode's NFKC_Casefold (the fold UAX #31 gives for
 * identifier comparison) with what JavaScript has built in:
 * 1. NFKC, so composed and decomposed `É`, full-width `１２３` and `123`, the
 *    Kelvin sign and `K`, the micro sign and `μ` become the same characters;
 * 2. default-ignorable code points removed (zero-width characters, bidi
 *    controls, variation selectors: input refuses most of them, but records
 *    stored before that rule may hold them);
 * 3. full case folding as `toLowerCase().toUpperCase().toLowerCase()`: the
 *    upper-casing takes the one-to-many mappings (`ß` → `SS` → `ss`, Greek
 *    with iota subscript) that `toLowerCase` alone leaves apart, and the
 *    first lower-casing brings `ẞ` (which has no upper case) to `ß` first;
 *    all three are locale independent (no Turkish dotless i);
 * 4. NFKC again, since case mapping can leave text that is not normalized
 *    (`ǰ` upper-cases to `J` + combining caron). The key is stable,
 *    foldKey(foldKey(x)) === foldKey(x), for every single code point
 *    (identifiers.test.ts checks them all).
 *
 * Keys follow the Unicode version of the Node.js that wrote them; a later
 * version only adds mappings for characters that were unassigned before.
 *
 * @example
 * foldKey('ÀX-1') === foldKey('àx-1') // true
 * foldKey('\u212aR-1') === foldKey('kr-1') // true
 */
export function foldKey(value: string): string {
  return value.normalize('NFKC').replace(_IGNORABLE, '').toLowerCase().toUpperCase().toLowerCase().normalize('NFKC')
}

const _IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu
