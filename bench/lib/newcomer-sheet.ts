// What the newcomer's timed tasks (bench/newcomer.ts) work on: three resistors
// made by hand and a 200-row spreadsheet as a parts list exported from another
// tool would be, with the range the filter asks for and how many parts fall in it.

/** The parts made by hand on the component form; two fall in the range, one does not. */
export const HAND_PARTS = [
  { name: 'R 2k2 0603', resistance: '2k2' },
  { name: 'R 4k7 0603', resistance: '4k7' },
  { name: 'R 100k 0603', resistance: '100k' },
] as const

export const CATEGORY = 'Resistors'

/** The range filter of task 3 (both ends included, as the parametric search reads them). */
export const RANGE = { type: 'Resistance', min: '1k', max: '10k', minOhms: 1_000, maxOhms: 10_000 } as const

/** The tag the bulk edit of task 4 adds to every part in the range. */
export const BULK_TAG = 'checked'

/** The spreadsheet's header, as another tool writes it: the server does not know `Mfr. Part #` for the MPN, and without an MPN column takes `Part Number` for one. */
export const SHEET_COLUMNS = ['Part Number', 'Name', 'Mfr. Part #', 'Manufacturer', 'Description', 'Resistance', 'Category'] as const

/** What the newcomer sets in the column mapping: the two columns the server guessed wrong. */
export const MAPPING_FIXES = { 'Part Number': 'ipn', 'Mfr. Part #': 'partNumber' } as const

/** E12 mantissas, two digits: 10 Ω … 8.2 MΩ over six decades. */
const E12 = [10, 12, 15, 18, 22, 27, 33, 39, 47, 56, 68, 82]
const PACKAGES = ['0603', '0402', '0805']

export interface Sheet {
  csv: string
  rows: number
  /** Parts (hand-made and imported) whose Resistance lies in RANGE. */
  inRange: number
}

/** `rows` resistors, E12 values in three packages, as CSV; the same every run. */
export function newcomerSheet(rows = 200): Sheet {
  const lines = [SHEET_COLUMNS.join(',')]
  let inRange = HAND_PARTS.filter((p) => _inRange(siOhms(p.resistance))).length
  outer: for (const pkg of PACKAGES) {
    for (let decade = 0; decade < 6; decade++) {
      for (const m of E12) {
        if (lines.length > rows) break outer
        const ohms = m * 10 ** decade
        const value = siValue(ohms)
        const code = value.toUpperCase()
        lines.push([`RES-${pkg}-${code}`, `R ${value} 1% ${pkg}`, `RC${pkg}FR-07${code}L`, 'Yageo', `Thick film resistor ${value} 1% 0.1 W ${pkg}`, value, CATEGORY].join(','))
        if (_inRange(ohms)) inRange++
      }
    }
  }
  if (lines.length !== rows + 1) throw new Error(`bench: newcomer: the sheet holds at most ${lines.length - 1} rows`)
  return { csv: `${lines.join('\n')}\n`, rows, inRange }
}

/** 4700 → `4k7`, 1_000_000 → `1M`, 220 → `220`: how resistor values are written. */
export function siValue(ohms: number): string {
  const [scale, prefix] = ohms >= 1e6 ? [1e6, 'M'] : ohms >= 1e3 ? [1e3, 'k'] : [1, 'R']
  const [whole, fraction] = String(ohms / scale).split('.')
  return fraction ? `${whole}${prefix}${fraction}` : `${whole}${prefix === 'R' ? '' : prefix}`
}

/** The inverse of siValue, for the parts made by hand. */
export function siOhms(value: string): number {
  const match = /^(\d+)([RkM])?(\d*)$/.exec(value)
  if (!match) throw new Error(`bench: newcomer: not a resistor value: ${value}`)
  const scale = match[2] === 'M' ? 1e6 : match[2] === 'k' ? 1e3 : 1
  return Number(`${match[1]}.${match[3] || '0'}`) * scale
}

function _inRange(ohms: number): boolean {
  return ohms >= RANGE.minOhms && ohms <= RANGE.maxOhms
}

/** The records of a CSV text, header included (a quoted field may hold commas, quotes and line breaks). */
export function csvRecords(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let quoted = false
  const endField = () => {
    record.push(field)
    field = ''
  }
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quoted) {
      if (ch !== '"') field += ch
      else if (text[i + 1] === '"') field += text[++i]
      else quoted = false
    } else if (ch === '"') quoted = true
    else if (ch === ',') endField()
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++
      endField()
      records.push(record)
      record = []
    } else field += ch
  }
  if (field || record.length) {
    endField()
    records.push(record)
  }
  return records
}
