import * as z from 'zod'

/*
 * What Part-DB answers, coded against the source its API is generated from
 * (API Platform, https://github.com/Part-DB/Part-DB-server), as of commit
 * 1521c63c (2026-08-19):
 * - config/packages/api_platform.yaml — `hydra_prefix: true` (so `hydra:member`,
 *   `hydra:totalItems`, `hydra:view` / `hydra:next`; the file says it may become
 *   false, so the unprefixed names are read too), RFC 7807 errors;
 * - src/Entity/Parts/Part.php — GET /api/parts serialises the groups `part:read`,
 *   `provider_reference:read`, `api:basic:read`, `part_lot:read`; GET
 *   /api/parts/{id} adds `orderdetail:read`, `pricedetail:read`,
 *   `parameter:read`, `attachment:read`, `eda_info:read`, so orderdetails with
 *   their prices, parameters, attachments and EDA fields come only with the
 *   single part (and parameters have no collection endpoint at all,
 *   src/Entity/Parameters/AbstractParameter.php). `lastModified`;
 * - src/Entity/Parts/PartTraits/: BasicPropertyTrait (`description`, `category`,
 *   `footprint`), AdvancedPropertyTrait (`tags` — one comma-separated string —,
 *   `ipn`), ManufacturerTrait (`manufacturer`, `manufacturer_product_number`,
 *   `manufacturer_product_url`, `manufacturing_status`), InstockTrait
 *   (`partLots`, `total_instock`), OrderTrait (`orderdetails`), EDATrait
 *   (`eda_info`); src/Entity/EDA/EDAPartInfo.php (`kicad_symbol`,
 *   `kicad_footprint`, `value`, `exclude_from_bom`, `exclude_from_board`,
 *   `exclude_from_sim`);
 * - src/Entity/PriceInformations/Orderdetail.php (`supplier`, `supplierpartnr`,
 *   `supplier_product_url`, `obsolete`, `pricedetails`) and Pricedetail.php
 *   (`price`, `price_related_quantity`, `min_discount_quantity`,
 *   `currency_iso_code`); src/ApiResource/PartDBInfo.php (GET /api/info,
 *   `base_currency`);
 * - src/Entity/Parameters/AbstractParameter.php (`name`, `value_text`,
 *   `value_min`, `value_typical`, `value_max`, `unit`);
 * - src/Entity/Parts/{PartLot,StorageLocation,Category}.php (`storage_location`,
 *   `amount`, `instock_unknown`; `parent` always an IRI — `readableLink: false`)
 *   and src/Entity/Base/AbstractStructuralDBElement.php (`full_path`, the names
 *   from the root joined by " → ", in the `api:basic:read` group, so every
 *   embedded category, location, manufacturer and supplier carries `@id`, `id`,
 *   `name` and `full_path`);
 * - src/Entity/Attachments/Attachment.php and src/Serializer/AttachmentNormalizer.php
 *   (`name`, `external_path`, `internal_path` — a URL on the server such as
 *   `/media/part/2/bc547.pdf` —, `original_filename`, `picture`, `3d_model`,
 *   `attachment_type` always an IRI);
 * - src/Security/AuthenticationEntryPoint.php (no token: 401 `{ title, detail }`).
 * Fields are read as nullish (older servers lack some); a field of another
 * type than the entities declare is a `bad-answer`.
 */

const Text = z.string().nullish()
const Num = z.number().nullish()
const Flag = z.boolean().nullish()

/** A related resource embedded through `api:basic:read`: its IRI, id, name and path. */
export const Basic = z.object({ '@id': Text, id: Num, name: Text, full_path: Text })
export type Basic = z.infer<typeof Basic>

const Pricedetail = z.object({ price: z.union([z.string(), z.number()]).nullish(), price_related_quantity: Num, min_discount_quantity: Num, currency_iso_code: Text })
const Orderdetail = z.object({ supplier: Basic.nullish(), supplierpartnr: Text, supplier_product_url: Text, obsolete: Flag, pricedetails: z.array(Pricedetail).nullish() })
export type Orderdetail = z.infer<typeof Orderdetail>
const Parameter = z.object({ name: Text, value_text: Text, value_min: Num, value_typical: Num, value_max: Num, unit: Text })
export type Parameter = z.infer<typeof Parameter>
const PartLot = z.object({ storage_location: Basic.nullish(), amount: Num, instock_unknown: Flag })
const Attachment = z.object({
  name: Text,
  external_path: Text,
  internal_path: Text,
  original_filename: Text,
  picture: Flag,
  '3d_model': Flag,
  attachment_type: z.union([z.string(), Basic]).nullish(),
})
export type Attachment = z.infer<typeof Attachment>
const EdaInfo = z.object({ kicad_symbol: Text, kicad_footprint: Text, value: Text, exclude_from_bom: Flag, exclude_from_board: Flag, exclude_from_sim: Flag })

/** A part as GET /api/parts lists it (its relations beyond the basic ones are only IRIs there). */
export const ListedPart = z.object({
  id: z.int().positive(),
  name: Text,
  description: Text,
  ipn: Text,
  tags: Text,
  category: Basic.nullish(),
  footprint: Basic.nullish(),
  manufacturer: Basic.nullish(),
  manufacturer_product_number: Text,
  manufacturer_product_url: Text,
  manufacturing_status: Text,
  total_instock: Num,
  lastModified: Text,
})
export type ListedPart = z.infer<typeof ListedPart>

/** A part as GET /api/parts/{id} answers it, everything embedded. */
export const FullPart = ListedPart.extend({
  partLots: z.array(PartLot).nullish(),
  orderdetails: z.array(Orderdetail).nullish(),
  parameters: z.array(Parameter).nullish(),
  attachments: z.array(Attachment).nullish(),
  master_picture_attachment: Attachment.nullish(),
  eda_info: EdaInfo.nullish(),
})
export type FullPart = z.infer<typeof FullPart>

/** A category, storage location or attachment type as its own collection lists it: `parent` is an IRI. */
export const TreeNode = z.object({ '@id': z.string(), name: Text, parent: Text })

const HydraView = z.object({ 'hydra:next': Text, next: Text }).nullish()
export const HydraCollection = z.object({
  'hydra:member': z.array(z.unknown()).optional(),
  member: z.array(z.unknown()).optional(),
  'hydra:totalItems': Num,
  totalItems: Num,
  'hydra:view': HydraView,
  view: HydraView,
})

export const Info = z.object({ base_currency: Text })

/** Why Part-DB refused: API Platform's RFC 7807 / Hydra error, or the entry point's `{ title, detail }`. */
export const ErrorBody = z.object({ title: Text, detail: Text, 'hydra:title': Text, 'hydra:description': Text, message: Text })
