/*
 * The records a Part-DB fake holds: Part-DB's entity fields as the database
 * keeps them, relations by id (Part-DB-server, commit 1521c63c: the part
 * traits, ManufacturingStatus, EDAPartInfo, Orderdetail, Pricedetail,
 * AbstractParameter, PartLot, Attachment, the structural elements, Currency).
 */

export type ManufacturingStatus = 'announced' | 'active' | 'nrfnd' | 'eol' | 'discontinued' | ''

export interface PartdbNode {
  id: number
  name: string
  parent: number | null
  comment: string
}
export interface PartdbCurrency {
  id: number
  name: string
  iso_code: string
}
export interface PartdbPricedetail {
  id: number
  /** A decimal with 5 places, as Part-DB's BigDecimal column. */
  price: string
  price_related_quantity: number
  min_discount_quantity: number
  currency: number | null
}
export interface PartdbOrderdetail {
  id: number
  supplier: number
  supplierpartnr: string
  supplier_product_url: string
  obsolete: boolean
  prices_includes_vat: boolean | null
  pricedetails: PartdbPricedetail[]
}
export interface PartdbParameter {
  id: number
  name: string
  symbol: string
  value_min: number | null
  value_typical: number | null
  value_max: number | null
  unit: string
  value_text: string
  group: string
}
export interface PartdbPartLot {
  id: number
  description: string
  comment: string
  amount: number
  instock_unknown: boolean
  storage_location: number | null
  expiration_date: string | null
  needs_refill: boolean
}
export interface PartdbAttachment {
  id: number
  name: string
  attachment_type: number
  external_path: string | null
  /** As stored: a placeholder path, `%MEDIA%/part/4/photo.jpg` or `%SECURE%/…`. */
  internal_path: string | null
  original_filename: string | null
  show_in_table: boolean
}
export interface PartdbEdaInfo {
  reference_prefix: string | null
  value: string | null
  visibility: boolean | null
  exclude_from_bom: boolean | null
  exclude_from_board: boolean | null
  exclude_from_sim: boolean | null
  kicad_symbol: string | null
  kicad_footprint: string | null
}
export interface PartdbPart {
  id: number
  name: string
  description: string
  comment: string
  category: number
  footprint: number | null
  manufacturer: number | null
  manufacturer_product_number: string
  manufacturer_product_url: string
  manufacturing_status: ManufacturingStatus | null
  ipn: string | null
  tags: string
  favorite: boolean
  needs_review: boolean
  mass: number | null
  minamount: number
  partLots: PartdbPartLot[]
  orderdetails: PartdbOrderdetail[]
  parameters: PartdbParameter[]
  attachments: PartdbAttachment[]
  master_picture_attachment: number | null
  eda_info: PartdbEdaInfo
  addedDate: string
  lastModified: string
}
export interface PartdbDb {
  /** LocalizationSettings::$baseCurrency, the currency of prices without one. */
  baseCurrency: string
  categories: PartdbNode[]
  storageLocations: PartdbNode[]
  manufacturers: PartdbNode[]
  suppliers: PartdbNode[]
  footprints: PartdbNode[]
  currencies: PartdbCurrency[]
  attachmentTypes: PartdbNode[]
  parts: PartdbPart[]
}
