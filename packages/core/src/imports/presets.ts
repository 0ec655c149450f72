import type { ImportTarget } from '../schemas/import'
import type { ComponentStatus } from '../status'

/**
 * Known file formats: which one a file's columns are, and the whole mapping
 * it proposes. Headers come from each peer's source (cited in
 * packages/api-server/test/fixtures/README.md); the user can still change any
 * column with `PATCH /api/imports/:id`.
 */
export type PresetId = 'complib' | 'inventree-parts' | 'inventree-manufacturer-parts' | 'inventree-supplier-parts' | 'inventree-companies' | 'partdb' | 'spreadsheet'

/** Whose keys a preset's key columns hold (decision 0640); null for files that are no peer's. */
export function presetSource(preset: string): string | null {
  if (preset.startsWith('inventree-')) return 'inventree'
  if (preset === 'partdb') return 'partdb'
  return null
}

type Rule = [RegExp, ImportTarget]

/** Columns every preset knows, tried after the preset's own rules. */
const COMMON: Rule[] = [
  [/^(name|title|part ?name)$/i, 'name'],
  [/^(ipn|internal part number)$/i, 'ipn'],
  [/^(description|desc)$/i, 'description'],
  [/^(status|lifecycle|manufacturing[ _]status)$/i, 'status'],
  [/^(category|category[ _]path|category\.full_name)$/i, 'category'],
  [/^(tags|labels|keywords)$/i, 'tags'],
  [/^(manufacturer|mfr|maker|brand|manufacturer[ _]name|manufacturer\.name)( ?\d+)?$/i, 'manufacturer'],
  [/^(mpn|part ?number|manufacturer part number|mfr ?pn|manufacturer_product_number)( ?\d+)?$/i, 'partNumber'],
  [/^mpns$/i, 'mpns'],
  [/^parameters(\.\d+\..+)?$/i, 'parameters'],
  [/^symbols?$|^kicad[ _]symbol$/i, 'symbols'],
  [/^footprints$|^kicad[ _]footprint$/i, 'footprints'],
  [/^stock$|^partlots(\.\d+\..+)?$/i, 'stock'],
  [/^(location|storage[ _]location|storelocation)$/i, 'location'],
  [/^(quantity|qty|amount|instock|in stock|stock quantity)$/i, 'quantity'],
  [/^(datasheet|datasheet url)$/i, 'datasheet'],
  [/^attachments(\.\d+\..+)?$/i, 'attachments'],
  [/^kicad[ _]?value$/i, 'kicadValue'],
  [/^exclude[ _]?from[ _]?bom$/i, 'excludeFromBom'],
  [/^exclude[ _]?from[ _]?board$/i, 'excludeFromBoard'],
  [/^exclude[ _]?from[ _]?sim$/i, 'excludeFromSim'],
  [/^(id|created ?at|updated ?at|deleted ?at|version)$/i, 'ignore'],
  [/ unit$/i, 'parameterUnit'],
]

const PRESET_RULES: Record<PresetId, Rule[]> = {
  complib: [],
  // InvenTree's data exporter writes the PartSerializer field labels; `Category` holds the category's id.
  'inventree-parts': [
    [/^category$/i, 'ignore'],
    [/^(category name|category path)$/i, 'category'],
    [/^active$/i, 'status'],
    [/^(total stock|in stock)$/i, 'quantity'],
    [/^(default location)$/i, 'ignore'],
    [/^(revision|link|notes|units|variant of|minimum stock|assembly|component|trackable|purchaseable|salable|virtual|is template|locked|testable|starred|image|thumbnail|barcode|creation date|creation user|responsible|default expiry|default supplier|bom checked|pricing .*|allocated .*|available .*|required .*|on order|building|can build|ordering|external stock|unallocated stock|variant stock|stock item count)$/i, 'ignore'],
  ],
  'inventree-manufacturer-parts': [
    [/^part$/i, 'ignore'],
    [/^(part ipn)$/i, 'ipn'],
    [/^(part name)$/i, 'name'],
    [/^manufacturer$/i, 'ignore'],
    [/^(manufacturer name)$/i, 'manufacturer'],
    [/^(description|link|pretty name|barcode)$/i, 'ignore'],
  ],
  'inventree-supplier-parts': [
    [/^part$/i, 'ignore'],
    [/^(part ipn)$/i, 'ipn'],
    [/^(part name)$/i, 'name'],
    [/^(manufacturer|supplier|supplier name|sku|manufacturer part|description|link|note|packaging|pack quantity|available|availability updated|in stock|on order|active|price breaks|pretty name|barcode|updated|primary)$/i, 'ignore'],
    [/^(manufacturer name)$/i, 'manufacturer'],
  ],
  // Part-DB's exporter (symfony serializer, nested objects flattened with `.` in CSV).
  partdb: [
    [/^(category\.name|footprint\.full_name|manufacturer\.full_name|type)$/i, 'ignore'],
    [/^footprint\.name$/i, 'parameter'],
    [/^(eda_info\.)?(kicad_symbol|eda_kicad_symbol)$/i, 'symbols'],
    [/^(eda_info\.)?(kicad_footprint|eda_kicad_footprint)$/i, 'footprints'],
    [/^(comment|favorite|needs_review|minamount|orderamount|mass|manufacturer_product_url|total_instock|addedDate|lastModified|built_project|partUnit(\..*)?|orderdetails(\..*)?|eda_info(\..*)?|visible|provider_reference(\..*)?|gtin|built_amount|attachments(\..*)?|master_picture_attachment(\..*)?|partCustomState(\..*)?|associated_parts_as_.*)$/i, 'ignore'],
  ],
  'inventree-companies': [],
  spreadsheet: [],
}

/** Which preset the columns are. complib's own export is recognised by its `id` values' prefix and columns. */
export function detectPreset(columns: readonly string[]): PresetId {
  const has = (re: RegExp) => columns.some((c) => re.test(c))
  if (has(/^id$/) && has(/^ipn$/) && has(/^partNumber$/) && !has(/^IPN$/)) return 'complib'
  if (has(/^id$/) && has(/^ipn$/) && has(/^mpns$/)) return 'complib'
  if (has(/^MPN$/) && has(/^Part$/) && has(/^Supplier$/)) return 'inventree-supplier-parts'
  if (has(/^MPN$/) && has(/^Part$/) && has(/^Manufacturer$/)) return 'inventree-manufacturer-parts'
  if (has(/^IPN$/) && (has(/^Category Name$/i) || has(/^Active$/))) return 'inventree-parts'
  if (has(/^manufacturer_product_number$/) || has(/^manufacturing_status$/) || has(/^partLots(\.|$)/) || has(/^category\.full_name$/)) return 'partdb'
  return 'spreadsheet'
}

/** The columns neither the preset's rules nor the common ones recognise. */
export function unknownColumns(columns: readonly string[], preset: PresetId): string[] {
  const rules = [...(PRESET_RULES[preset] ?? []), ...COMMON]
  return columns.filter((c) => !rules.some(([re]) => re.test(c)))
}

/** The mapping a preset proposes: its own rules, then the common ones; any other column becomes a parameter. */
export function proposeMapping(columns: readonly string[], preset: PresetId): Record<string, ImportTarget> {
  const rules = [...PRESET_RULES[preset], ...COMMON]
  const mapping: Record<string, ImportTarget> = Object.create(null)
  for (const c of columns) mapping[c] = rules.find(([re]) => re.test(c))?.[1] ?? 'parameter'
  // `<X> unit` is a unit only beside a column X; otherwise it is a parameter of its own.
  for (const c of columns) if (mapping[c] === 'parameterUnit' && !columns.includes(c.replace(/ unit$/i, ''))) mapping[c] = 'parameter'
  // Beside an `MPN` column, a `Part Number` is the user's own number, not a second MPN (decision 0617).
  const internal = columns.find((c) => /^part ?number$/i.test(c) && mapping[c] === 'partNumber')
  const mpn = columns.some((c) => /^(mpn|mfr ?pn|manufacturer part number)$/i.test(c) && mapping[c] === 'partNumber')
  if (internal !== undefined && mpn && !columns.some((c) => mapping[c] === 'ipn')) mapping[internal] = 'ipn'
  return mapping
}

/**
 * A status as the peers write it, or null when it is none we know (a row
 * error then, never a guess). InvenTree's `Active` is `True`/`False`; Part-DB's
 * `manufacturing_status` is `announced`, `active`, `nrfnd`, `eol`,
 * `discontinued` or empty. End of life still sells (last-time buy): nrnd.
 */
export function readStatus(text: string): ComponentStatus | null | undefined {
  const s = text.trim().toLowerCase()
  if (s === '') return undefined
  if (['active', 'true', 'yes', '1', 'y', 'production'].includes(s)) return 'active'
  if (['draft', 'announced', 'preliminary', 'new', 'prototype'].includes(s)) return 'draft'
  if (['nrnd', 'nrfnd', 'not recommended for new designs', 'eol', 'end of life', 'last time buy', 'ltb'].includes(s)) return 'nrnd'
  if (['obsolete', 'discontinued', 'false', 'no', '0', 'n', 'inactive'].includes(s)) return 'obsolete'
  return null
}
