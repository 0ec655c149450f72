import type { FakeAttachment, FakeManufacturerPart, FakeParameter, FakePart, FakePriceBreak, FakeStockItem, FakeSupplierPart, FakeTreeNode, InventreeFakeDb } from './records'

/*
 * Records rendered as InvenTree's serializers render them
 * (src/backend/InvenTree/): PartSerializer (`tags` only when asked),
 * CategorySerializer and LocationSerializer (`pathstring`, `level` derived
 * from `parent`), ParameterSerializer (from API v429) and
 * PartParameterSerializer (up to v428), both with `template_detail`;
 * ManufacturerPartSerializer and SupplierPartSerializer (`*_detail` when
 * asked; `MPN`, `pack_quantity_native`), SupplierPriceBreakSerializer
 * (`price` as DRF renders a Decimal, text with six places; `quantity` a
 * number), StockItemSerializer, AttachmentSerializer (`attachment` a media
 * path, `filename` its base name).
 */

function _pathOf(nodes: FakeTreeNode[], pk: number | null): FakeTreeNode[] {
  const out: FakeTreeNode[] = []
  for (let at = nodes.find((n) => n.pk === pk); at && !out.includes(at); at = nodes.find((n) => n.pk === at!.parent)) out.unshift(at)
  return out
}

export function node(nodes: FakeTreeNode[], n: FakeTreeNode) {
  const path = _pathOf(nodes, n.pk)
  return { pk: n.pk, name: n.name, description: n.description, parent: n.parent, level: path.length - 1, pathstring: path.map((p) => p.name).join('/'), structural: false, icon: '' }
}

export function part(db: InventreeFakeDb, p: FakePart, withTags: boolean) {
  const onShelf = db.stockItems.filter((s) => s.part === p.pk && s.in_stock).reduce((sum, s) => sum + s.quantity, 0)
  return {
    pk: p.pk,
    name: p.name,
    IPN: p.IPN,
    full_name: p.IPN ? `${p.IPN} | ${p.name}` : p.name,
    revision: '',
    description: p.description,
    category: p.category,
    category_name: db.categories.find((c) => c.pk === p.category)?.name ?? null,
    keywords: p.keywords,
    active: p.active,
    link: p.link,
    image: p.image,
    thumbnail: p.image ?? '/static/img/blank_image.thumbnail.png',
    units: p.units,
    assembly: false,
    component: true,
    is_template: false,
    purchaseable: true,
    salable: false,
    trackable: false,
    virtual: false,
    locked: false,
    minimum_stock: 0,
    creation_date: '2025-06-01',
    in_stock: onShelf,
    total_in_stock: onShelf,
    ...(withTags ? { tags: [...p.tags] } : {}),
  }
}

export function parameter(db: InventreeFakeDb, p: FakeParameter, withTemplate: boolean) {
  const template = db.parameterTemplates.find((t) => t.pk === p.template)
  const numeric = Number.parseFloat(p.data)
  return {
    pk: p.pk,
    template: p.template,
    model_type: p.model_type,
    model_id: p.model_id,
    data: p.data,
    data_numeric: Number.isFinite(numeric) ? numeric : null,
    note: '',
    updated: '2026-01-15T09:30:00.000000Z',
    updated_by: 1,
    ...(withTemplate && template ? { template_detail: { pk: template.pk, name: template.name, units: template.units, description: template.description, model_type: 'part', checkbox: false, choices: '', selectionlist: null, enabled: true } } : {}),
  }
}

/** PartParameterSerializer (up to v428): the part by `part`, no generic model fields. */
export function legacyParameter(db: InventreeFakeDb, p: FakeParameter, withTemplate: boolean) {
  const { pk, template, data, data_numeric, template_detail } = parameter(db, p, withTemplate)
  return { pk, part: p.model_id, template, data, data_numeric, ...(template_detail ? { template_detail } : {}) }
}

function company(db: InventreeFakeDb, pk: number | null) {
  const c = db.companies.find((x) => x.pk === pk)
  return c ? { pk: c.pk, active: true, name: c.name, description: '', image: null, thumbnail: null, currency: c.currency, tax_id: '' } : null
}

export function manufacturerPart(db: InventreeFakeDb, m: FakeManufacturerPart, withDetail: boolean) {
  return { pk: m.pk, part: m.part, manufacturer: m.manufacturer, MPN: m.MPN, description: '', link: m.link, barcode_hash: '', notes: null, ...(withDetail ? { manufacturer_detail: company(db, m.manufacturer) } : {}) }
}

export function supplierPart(db: InventreeFakeDb, s: FakeSupplierPart, withDetail: boolean) {
  const native = Number.parseFloat(s.pack_quantity)
  return {
    pk: s.pk,
    part: s.part,
    supplier: s.supplier,
    manufacturer_part: s.manufacturer_part,
    MPN: db.manufacturerParts.find((m) => m.pk === s.manufacturer_part)?.MPN ?? null,
    SKU: s.SKU,
    description: '',
    link: s.link,
    active: true,
    available: s.available,
    availability_updated: null,
    packaging: s.packaging,
    pack_quantity: s.pack_quantity,
    pack_quantity_native: Number.isFinite(native) ? native : 1,
    note: '',
    barcode_hash: '',
    in_stock: 0,
    on_order: 0,
    updated: '2026-01-15T09:30:00.000000Z',
    ...(withDetail ? { supplier_detail: company(db, s.supplier) } : {}),
  }
}

export function priceBreak(db: InventreeFakeDb, b: FakePriceBreak) {
  const supplier = db.supplierParts.find((s) => s.pk === b.part)?.supplier ?? null
  return { pk: b.pk, part: b.part, quantity: b.quantity, price: b.price.toFixed(6), price_currency: b.price_currency, supplier, updated: '2026-01-15T09:30:00.000000Z' }
}

export function stockItem(db: InventreeFakeDb, s: FakeStockItem) {
  return { pk: s.pk, part: s.part, quantity: s.quantity, location: s.location, serial: null, batch: '', status: s.in_stock ? 10 : 60, in_stock: s.in_stock, is_building: false, belongs_to: null, customer: s.in_stock ? null : 1, supplier_part: db.supplierParts.find((x) => x.part === s.part)?.pk ?? null }
}

export function attachment(a: FakeAttachment) {
  const filename = a.attachment ? a.attachment.split('/').at(-1) ?? null : null
  return { pk: a.pk, attachment: a.attachment, filename, link: a.link, comment: a.comment, upload_date: '2026-01-15', upload_user: 1, file_size: a.attachment ? 123_456 : 0, model_type: a.model_type, model_id: a.model_id, tags: [] }
}
