import type { ImportTarget } from '../schemas/import'
import type { ComponentStatus } from '../status'

/**
 * Known file formats: which one a file's columns are, and the whole mapping
 * it proposes. Headers come from each peer's source (cited in
 * packages/api-server/test/fixtures/imports/README.md); the user can still change any
 * column with `PATCH /api/imports/:id`.
 */
export type PresetId = 'complib' | 'inventree-parts' | 'inventree-manufacturer-parts' | 'inventree-supplier-parts' | 'inventree-companies' | 'partdb' | 'pull' | 'spreadsheet'

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
  // Supplier offers are exported to be read (costing a BOM), not imported: a source fetches them again (decision 1603).
  [/^offers(\.\d+\..+)?$/i, 'ignore'],
  [/ unit$/i, 'parameterUnit'],
]

/**
 * The columns InvenTree's part export writes besides parameters: the labels of
 * `PartSerializer`'s fields (decision 0641). All but these are ignored; the
 * parameter exporter appends one column per parameter template after them.
 */
const INVENTREE_PART_FIELDS =
  /^(active|assembly|barcode hash|category|category name|category path|component|creation date|creation user|default expiry|default location|default supplier|description|full name|image|remote image|ipn|is template|keywords|last stocktake|link|locked|minimum stock|name|notes|id|purchaseable|revision|salable|starred|thumbnail|trackable|testable|units|variant of|virtual|pricing min|pricing max|pricing min total|pricing max total|pricing updated|responsible|allocated to build orders|allocated to sales orders|building|category default location|in stock|on order|ordering|required for build orders|required for sales orders|stock items|suppliers|total stock|external stock|unallocated stock|variant stock|available stock|available substitute stock|available variant stock|can build|tags)$/i

const PRESET_RULES: Record<PresetId, Rule[]> = {
  complib: [],
  // InvenTree's data exporter writes the PartSerializer field labels; `Category` holds the category's id.
  'inventree-parts': [
    [/^id$/i, 'sourceKey'],
    [/^category$/i, 'ignore'],
    [/^category name$/i, 'category'],
    [/^active$/i, 'status'],
    // `In Stock` is the part's own stock; `Total Stock` adds its variants' (exported as parts of their own).
    [/^in stock$/i, 'quantity'],
    [/^name$/i, 'name'],
    [/^ipn$/i, 'ipn'],
    [/^description$/i, 'description'],
    [/^keywords$/i, 'tags'],
    [INVENTREE_PART_FIELDS, 'ignore'],
  ],
  // ManufacturerPartSerializer: the part and the manufacturer by their keys only.
  'inventree-manufacturer-parts': [
    [/^(base part|part)$/i, 'partKey'],
    [/^manufacturer$/i, 'manufacturerKey'],
    [/^mpn$/i, 'partNumber'],
    [/^(id|description|link|barcode hash|notes|pretty name|tags)$/i, 'ignore'],
    [/^(part|manufacturer)\..+$/i, 'ignore'],
  ],
  // SupplierPartSerializer: the part by its key, the manufacturer by name (`Manufacturer.Company name`).
  'inventree-supplier-parts': [
    [/^(base part|part)$/i, 'partKey'],
    [/^(manufacturer\.company name|manufacturer name)$/i, 'manufacturer'],
    [/^mpn$/i, 'partNumber'],
    [/^part\.ipn$/i, 'ipn'],
    [/^part\.name$/i, 'name'],
    [/^(available|availability updated|description|in stock|on order|link|active|manufacturer|manufacturer part|note|notes|id|barcode hash|packaging|pack quantity|pack quantity native|pretty name|sku|supplier|supplier name|updated|tags)$/i, 'ignore'],
    [/^(part|supplier|manufacturer|manufacturer part)\..+$/i, 'ignore'],
  ],
  // CompanySerializer: a company's key and name; the rest is no component's.
  'inventree-companies': [
    [/^id$/i, 'sourceKey'],
    [/^(company name|name)$/i, 'name'],
    [/^(company description|description|website|phone number|address|email|currency|contact|link|image|active|is customer|is manufacturer|is supplier|notes|parts supplied|parts manufactured|address count|tax id|primary address)$/i, 'ignore'],
    // The primary address's column is headed by its field's long label.
    [/^return the string representation for the primary address\b/i, 'ignore'],
  ],
  // Part-DB's exporter (symfony serializer, nested objects flattened with `.` in CSV); decision 0642.
  partdb: [
    [/^id$/, 'sourceKey'],
    [/^manufacturer\.name$/, 'manufacturer'],
    [/^(manufacturer|category|footprint)\.(?!name$|full_name$).+$/, 'ignore'],
    [/^(category\.name|footprint\.full_name|manufacturer\.full_name|type)$/, 'ignore'],
    [/^footprint(\.name)?$/, 'parameter'],
    [/^(eda_info\.)?(kicad_symbol|eda_kicad_symbol)$/, 'symbols'],
    [/^(eda_info\.)?(kicad_footprint|eda_kicad_footprint)$/, 'footprints'],
    [/^eda_info\.value$/, 'kicadValue'],
    [/^eda_info\.exclude_from_bom$/, 'excludeFromBom'],
    [/^eda_info\.exclude_from_board$/, 'excludeFromBoard'],
    [/^eda_info\.exclude_from_sim$/, 'excludeFromSim'],
    [/^total_instock$/, 'quantity'],
    [/^(comment|favorite|needs_review|minamount|orderamount|mass|gtin|manufacturer_product_url|addedDate|lastModified|built_project|built_amount|visible|eda_info|partUnit|orderdetails|providerReference|provider_reference|attachments|master_picture_attachment|partCustomState|associated_parts_as_owner|associated_parts_as_other)(\..*)?$/, 'ignore'],
  ],
  // The rows a pull makes of a peer's parts (decision 1609): complib's own fields, the peer's key and its offers.
  pull: [
    [/^key$/, 'sourceKey'],
    [/^offers$/, 'offers'],
  ],
  spreadsheet: [],
}

/** Which preset the columns are. complib's own export is recognised by its `id` values' prefix and columns. */
export function detectPreset(columns: readonly string[]): PresetId {
  const has = (re: RegExp) => columns.some((c) => re.test(c))
  if (has(/^id$/) && has(/^ipn$/) && has(/^partNumber$/) && !has(/^IPN$/)) return 'complib'
  if (has(/^id$/) && has(/^ipn$/) && has(/^mpns$/)) return 'complib'
  const basePart = has(/^(Base Part|Part)$/)
  if (basePart && has(/^SKU$/) && has(/^Supplier(\.Company name)?$/)) return 'inventree-supplier-parts'
  if (basePart && has(/^MPN$/) && has(/^Manufacturer$/)) return 'inventree-manufacturer-parts'
  if (has(/^(Company name|Name)$/) && (has(/^Is manufacturer$/i) || has(/^Is supplier$/i))) return 'inventree-companies'
  if (has(/^IPN$/) && (has(/^Category Name$/i) || has(/^Active$/) || has(/^Total Stock$/))) return 'inventree-parts'
  if (has(/^manufacturer_product_number$/) || has(/^manufacturing_status$/) || has(/^partLots(\.|$)/) || has(/^category\.full_name$/) || has(/^total_instock$/)) return 'partdb'
  return 'spreadsheet'
}

/**
 * Each column's proposed target, and whether a rule knew it. A peer's column
 * no rule knows is ignored and listed, never made a parameter (decision 0643):
 * only a plain spreadsheet (and complib's own export) turns them into
 * parameters. InvenTree's part export is the one peer file whose extra columns
 * are parameters by construction: the parameter exporter appends them after
 * every serializer column (decision 0641).
 */
function _classify(columns: readonly string[], preset: PresetId): Array<{ column: string; target: ImportTarget; known: boolean }> {
  const rules = [...(PRESET_RULES[preset] ?? []), ...COMMON]
  const found = columns.map((column) => ({ column, target: rules.find(([re]) => re.test(column))?.[1] }))
  const lastField = preset === 'inventree-parts' ? found.findLastIndex((f) => INVENTREE_PART_FIELDS.test(f.column)) : -1
  return found.map(({ column, target }, i) => {
    if (preset === 'inventree-parts' && i > lastField) return { column, target: 'parameter', known: true }
    if (target !== undefined) return { column, target, known: true }
    return { column, target: preset === 'spreadsheet' || preset === 'complib' ? 'parameter' : 'ignore', known: false }
  })
}

/** The columns neither the preset's rules nor the common ones recognise (a peer preset ignores them). */
export function unknownColumns(columns: readonly string[], preset: PresetId): string[] {
  return _classify(columns, preset)
    .filter((c) => !c.known)
    .map((c) => c.column)
}

/** The mapping a preset proposes: its own rules, then the common ones; any other column becomes a parameter of a spreadsheet, and is ignored in a peer's file. */
export function proposeMapping(columns: readonly string[], preset: PresetId): Record<string, ImportTarget> {
  const mapping: Record<string, ImportTarget> = Object.create(null)
  for (const { column, target } of _classify(columns, preset)) mapping[column] = target
  // `<X> unit` is a unit only beside a column X; otherwise it is a parameter of its own.
  for (const c of columns) if (mapping[c] === 'parameterUnit' && !columns.includes(c.replace(/ unit$/i, ''))) mapping[c] = 'parameter'
  // Beside an `MPN` column, a `Part Number` is the user's own number, not a second MPN (decision 0617).
  const internal = columns.find((c) => /^part ?number$/i.test(c) && mapping[c] === 'partNumber')
  const mpn = columns.some((c) => /^(mpn|mfr ?pn|manufacturer part number)$/i.test(c) && mapping[c] === 'partNumber')
  if (internal !== undefined && mpn && !columns.some((c) => mapping[c] === 'ipn')) mapping[internal] = 'ipn'
  // A row that names its part by key belongs to that part: the part's name and IPN beside the key are the part's own, not new values.
  if (columns.some((c) => mapping[c] === 'partKey')) for (const c of columns) if (/^part\./i.test(c)) mapping[c] = 'ignore'
  // Part-DB's total_instock is the sum of the part lots; beside the lots it would count them twice.
  if (preset === 'partdb' && columns.some((c) => /^partLots(\.|$)/.test(c))) for (const c of columns) if (c === 'total_instock') mapping[c] = 'ignore'
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
