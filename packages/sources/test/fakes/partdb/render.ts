import type { PartdbAttachment, PartdbDb, PartdbNode, PartdbOrderdetail, PartdbParameter, PartdbPart, PartdbPartLot, PartdbPricedetail } from './records'

/*
 * Records rendered as Part-DB serialises them (Part-DB-server, commit 1521c63c):
 * - src/Entity/Parts/Part.php — GET /api/parts (groups part:read,
 *   provider_reference:read, api:basic:read, part_lot:read: orderdetails,
 *   parameters and attachments only as `{ @id, @type, id }`, `eda_info` empty),
 *   GET /api/parts/{id} (everything embedded);
 * - the part traits, ManufacturingStatus, EDAPartInfo, Orderdetail,
 *   Pricedetail (price a decimal string with 5 places, `price_per_unit`,
 *   `currency_iso_code`), AbstractParameter (`formatted`), PartLot,
 *   Attachment + AttachmentNormalizer (`internal_path` as the server's URL:
 *   `/media/...` for public files, `/attachment/{id}/view` for `%SECURE%`
 *   ones; `picture`, `3d_model`, `external`, `internal`, `private`,
 *   `builtIn`, `thumbnail_url`, `media_url`), and every embedded related
 *   resource as `{ @id, @type, id, name, full_path }` (api:basic:read);
 * - categories, storage locations and attachment types with `parent` an IRI.
 */

const PICTURE_EXTS = ['apng', 'bmp', 'gif', 'ico', 'cur', 'jpg', 'jpeg', 'jfif', 'pjpeg', 'pjp', 'png', 'svg', 'webp']

/** The serialiser of `db`'s records: a part (listed, or `full` as GET /api/parts/{id} embeds it) and a tree node. */
export function render(db: PartdbDb) {
  const byId = <T extends { id: number }>(list: T[], id: number | null) => (id === null ? undefined : list.find((x) => x.id === id))
  const fullPath = (list: PartdbNode[], node: PartdbNode): string => {
    const names = [node.name]
    for (let at = byId(list, node.parent), n = 0; at && n < 20; at = byId(list, at.parent), n++) names.unshift(at.name)
    return names.join(' → ')
  }
  /** A related resource through api:basic:read. */
  const basic = (path: string, type: string, list: PartdbNode[], id: number | null) => {
    const node = byId(list, id)
    return node ? { '@id': `/api/${path}/${node.id}`, '@type': type, id: node.id, name: node.name, full_path: fullPath(list, node) } : null
  }
  const currencyOf = (id: number | null) => byId(db.currencies, id)
  const pricedetail = (p: PartdbPricedetail) => ({
    '@id': `/api/pricedetails/${p.id}`,
    '@type': 'Pricedetail',
    id: p.id,
    price: p.price,
    currency: currencyOf(p.currency) ? { '@id': `/api/currencies/${p.currency}`, '@type': 'Currency', id: p.currency, name: currencyOf(p.currency)!.name, full_path: currencyOf(p.currency)!.name } : null,
    price_related_quantity: p.price_related_quantity,
    min_discount_quantity: p.min_discount_quantity,
    price_per_unit: (Number(p.price) / p.price_related_quantity).toFixed(5),
    currency_iso_code: currencyOf(p.currency)?.iso_code ?? null,
  })
  const orderdetail = (o: PartdbOrderdetail) => ({
    '@id': `/api/orderdetails/${o.id}`,
    '@type': 'Orderdetail',
    id: o.id,
    pricedetails: o.pricedetails.map(pricedetail),
    supplierpartnr: o.supplierpartnr,
    obsolete: o.obsolete,
    eda_visibility: null,
    supplier_product_url: o.supplier_product_url,
    supplier: basic('suppliers', 'Supplier', db.suppliers, o.supplier),
    prices_includes_vat: o.prices_includes_vat,
  })
  const parameter = (p: PartdbParameter) => ({ '@id': `/api/parameters/${p.id}`, '@type': 'PartParameter', ...p, eda_visibility: null, eda_symbol_visibility: null, formatted: formatted(p) })
  const lot = (l: PartdbPartLot) => ({
    '@id': `/api/part_lots/${l.id}`,
    '@type': 'PartLot',
    id: l.id,
    description: l.description,
    comment: l.comment,
    expiration_date: l.expiration_date,
    storage_location: basic('storage_locations', 'StorageLocation', db.storageLocations, l.storage_location),
    instock_unknown: l.instock_unknown,
    amount: l.amount,
    needs_refill: l.needs_refill,
    owner: null,
    user_barcode: null,
    last_stocktake_at: null,
  })
  const attachment = (a: PartdbAttachment) => {
    const extension = (path: string | null) => /\.([a-z0-9]+)$/i.exec(path ?? '')?.[1]?.toLowerCase() ?? ''
    const internal = !!a.internal_path
    const picture = internal ? PICTURE_EXTS.includes(extension(a.internal_path)) : !!a.external_path && (extension(new URL(a.external_path).pathname) === '' || PICTURE_EXTS.includes(extension(new URL(a.external_path).pathname)))
    const secure = a.internal_path?.startsWith('%SECURE%') ?? false
    const url = !internal ? null : secure ? `/attachment/${a.id}/view` : a.internal_path!.replace(/^%MEDIA%/, '/media')
    return {
      '@id': `/api/attachments/${a.id}`,
      '@type': 'PartAttachment',
      id: a.id,
      name: a.name,
      original_filename: a.original_filename,
      external_path: a.external_path,
      show_in_table: a.show_in_table,
      attachment_type: `/api/attachment_types/${a.attachment_type}`,
      picture,
      '3d_model': internal && extension(a.internal_path) === 'x3d',
      external: !!a.external_path,
      internal,
      private: secure,
      builtIn: false,
      internal_path: url,
      thumbnail_url: picture ? (url ? `/media/cache/thumbnail_sm${url}` : a.external_path) : null,
      media_url: url ?? a.external_path,
    }
  }
  const ref = (path: string, type: string, id: number) => ({ '@id': `/api/${path}/${id}`, '@type': type, id })
  return {
    part(p: PartdbPart, full: boolean) {
      const master = p.attachments.find((a) => a.id === p.master_picture_attachment)
      return {
        '@id': `/api/parts/${p.id}`,
        '@type': 'Part',
        id: p.id,
        name: p.name,
        description: p.description,
        comment: p.comment,
        favorite: p.favorite,
        category: basic('categories', 'Category', db.categories, p.category),
        footprint: basic('footprints', 'Footprint', db.footprints, p.footprint),
        manufacturer: basic('manufacturers', 'Manufacturer', db.manufacturers, p.manufacturer),
        manufacturer_product_url: p.manufacturer_product_url,
        manufacturer_product_number: p.manufacturer_product_number,
        manufacturing_status: p.manufacturing_status,
        ipn: p.ipn,
        tags: p.tags,
        needs_review: p.needs_review,
        mass: p.mass,
        gtin: null,
        providerReference: { provider_key: null, provider_id: null, provider_url: null, last_updated: null },
        partCustomState: null,
        partLots: p.partLots.map(lot),
        minamount: p.minamount,
        partUnit: null,
        total_instock: p.partLots.filter((l) => !l.instock_unknown).reduce((sum, l) => sum + l.amount, 0),
        orderdetails: full ? p.orderdetails.map(orderdetail) : p.orderdetails.map((o) => ref('orderdetails', 'Orderdetail', o.id)),
        parameters: full ? p.parameters.map(parameter) : p.parameters.map((x) => ref('parameters', 'PartParameter', x.id)),
        attachments: full ? p.attachments.map(attachment) : p.attachments.map((a) => ref('attachments', 'PartAttachment', a.id)),
        master_picture_attachment: master ? (full ? attachment(master) : ref('attachments', 'PartAttachment', master.id)) : null,
        eda_info: full ? { ...p.eda_info } : {},
        project_build_part: false,
        associated_parts_as_owner: [],
        associated_parts_as_other: [],
        addedDate: p.addedDate,
        lastModified: p.lastModified,
      }
    },
    tree(path: string, type: string, list: PartdbNode[], node: PartdbNode) {
      return { '@id': `/api/${path}/${node.id}`, '@type': type, id: node.id, name: node.name, full_path: fullPath(list, node), parent: node.parent === null ? null : `/api/${path}/${node.parent}`, comment: node.comment }
    },
  }
}

/** AbstractParameter::getFormattedValue, with the unit after each number. */
function formatted(p: PartdbParameter): string {
  const u = (n: number) => (p.unit ? `${n} ${p.unit}` : String(n))
  if (p.value_typical === null && p.value_min === null && p.value_max === null) return p.value_text
  let out = p.value_typical !== null ? u(p.value_typical) : ''
  const open = p.value_typical !== null && (!!p.value_min || !!p.value_max)
  if (open) out += ' ('
  if (p.value_min !== null && p.value_max !== null) out += `${u(p.value_min)} ... ${u(p.value_max)}`
  else if (p.value_max !== null) out += `max. ${u(p.value_max)}`
  else if (p.value_min !== null) out += `min. ${u(p.value_min)}`
  if (open) out += ')'
  if (p.value_text !== '' && p.value_text !== '0') out += ` [${p.value_text}]`
  return out
}
