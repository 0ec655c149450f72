/*
 * The records an InvenTree fake holds: InvenTree's model fields
 * (github.com/inventree/InvenTree, src/backend/InvenTree/: part, common,
 * company and stock models), relations by pk.
 */

export interface FakeTreeNode {
  pk: number
  name: string
  description: string
  parent: number | null
}
export interface FakeCompany {
  pk: number
  name: string
  currency: string
  is_manufacturer: boolean
  is_supplier: boolean
}
export interface FakePart {
  pk: number
  name: string
  IPN: string | null
  description: string
  category: number | null
  keywords: string | null
  active: boolean
  tags: string[]
  link: string
  image: string | null
  units: string
}
export interface FakeParameterTemplate {
  pk: number
  name: string
  units: string
  description: string
}
export interface FakeParameter {
  pk: number
  template: number
  model_type: string
  model_id: number
  data: string
}
export interface FakeManufacturerPart {
  pk: number
  part: number
  manufacturer: number
  MPN: string
  link: string
}
export interface FakeSupplierPart {
  pk: number
  part: number
  supplier: number
  manufacturer_part: number | null
  SKU: string
  link: string
  available: number
  packaging: string
  pack_quantity: string
}
export interface FakePriceBreak {
  pk: number
  /** The supplier part. */
  part: number
  quantity: number
  price: number
  price_currency: string
}
export interface FakeStockItem {
  pk: number
  part: number
  location: number | null
  quantity: number
  /** On the shelf (not sold, consumed or being built): what `?in_stock=true` keeps. */
  in_stock: boolean
}
export interface FakeAttachment {
  pk: number
  model_type: string
  model_id: number
  /** A media path, for a file. */
  attachment: string | null
  link: string | null
  comment: string
}

export interface InventreeFakeDb {
  categories: FakeTreeNode[]
  locations: FakeTreeNode[]
  companies: FakeCompany[]
  parts: FakePart[]
  parameterTemplates: FakeParameterTemplate[]
  parameters: FakeParameter[]
  manufacturerParts: FakeManufacturerPart[]
  supplierParts: FakeSupplierPart[]
  priceBreaks: FakePriceBreak[]
  stockItems: FakeStockItem[]
  attachments: FakeAttachment[]
}
