import * as z from 'zod'

/*
 * What InvenTree answers, coded against its API schema
 * (https://docs.inventree.org/en/stable/api/schema/: part, company, stock,
 * common) and the serializers it is generated from, in
 * github.com/inventree/InvenTree, src/backend/InvenTree/:
 * - InvenTree/api.py, InfoView — `GET /api/` answers `{ server: "InvenTree",
 *   version, apiVersion, … }` without a login;
 * - part/serializers.py — PartSerializer (`pk`, `name`, `IPN`, `description`,
 *   `category`, `keywords`, `active`, `link`, `image`, `in_stock`, and `tags`,
 *   sent only with `?tags=true` since the output options), and
 *   CategorySerializer (`pk`, `name`, `parent`, `pathstring`);
 * - common/serializers.py — ParameterSerializer (`model_type`, `model_id`,
 *   `template_detail` { `name`, `units` }, `data`), and before API v429
 *   PartParameterSerializer (`part`, `template_detail`, `data`);
 *   AttachmentSerializer (`model_type`, `model_id`, `attachment` — a media
 *   path —, `filename`, `link`, `comment`);
 * - company/serializers.py — ManufacturerPartSerializer (`part`, `MPN`,
 *   `manufacturer_detail.name`), SupplierPartSerializer (`part`, `SKU`,
 *   `link`, `available`, `packaging`, `pack_quantity`, `supplier_detail.name`),
 *   SupplierPriceBreakSerializer (`part` = the supplier part, `quantity`,
 *   `price`, `price_currency`);
 * - stock/serializers.py — StockItemSerializer (`part`, `quantity`,
 *   `location`) and LocationSerializer (`pk`, `name`, `parent`, `pathstring`).
 * Quantities and prices are Decimal fields, rendered as numbers or as text
 * depending on the version: both are read. An error answers `{ detail }`.
 * Only the fields read are named; a field of another type than documented is
 * a `bad-answer`.
 */

const Text = z.string().nullish()
const Pk = z.number().int()
/** A Decimal field: a number, or its text. */
const Decimal = z.union([z.number(), z.string()]).nullish()

export const Info = z.object({ server: Text, apiVersion: z.union([z.number(), z.string()]).nullish() })
export const Part = z.object({
  pk: Pk,
  name: z.string(),
  IPN: Text,
  description: Text,
  category: Pk.nullish(),
  keywords: Text,
  active: z.boolean().nullish(),
  tags: z.array(z.string()).nullish(),
  link: Text,
  image: Text,
  in_stock: Decimal,
})
export type Part = z.infer<typeof Part>
export const TreeNode = z.object({ pk: Pk, name: z.string(), parent: Pk.nullish(), pathstring: Text })
export type TreeNode = z.infer<typeof TreeNode>
const TemplateDetail = z.object({ name: z.string(), units: Text }).nullish()
export const Parameter = z.object({ pk: Pk, model_id: Pk, template_detail: TemplateDetail, data: Text })
export const LegacyParameter = z.object({ pk: Pk, part: Pk, template_detail: TemplateDetail, data: Text })
export type Parameter = z.infer<typeof Parameter>
const Company = z.object({ name: z.string() }).nullish()
export const ManufacturerPart = z.object({ pk: Pk, part: Pk, MPN: Text, manufacturer_detail: Company })
export type ManufacturerPart = z.infer<typeof ManufacturerPart>
export const SupplierPart = z.object({
  pk: Pk,
  part: Pk,
  SKU: Text,
  link: Text,
  available: Decimal,
  packaging: Text,
  pack_quantity: Text,
  supplier_detail: Company,
})
export type SupplierPart = z.infer<typeof SupplierPart>
export const PriceBreak = z.object({ pk: Pk, part: Pk, quantity: Decimal, price: Decimal, price_currency: Text })
export type PriceBreak = z.infer<typeof PriceBreak>
export const StockItem = z.object({ pk: Pk, part: Pk, quantity: Decimal, location: Pk.nullish() })
export type StockItem = z.infer<typeof StockItem>
export const Attachment = z.object({ pk: Pk, model_id: Pk, attachment: Text, filename: Text, link: Text, comment: Text })
export type Attachment = z.infer<typeof Attachment>
export const ErrorBody = z.object({ detail: Text })
