import * as z from 'zod'
import { foldKey } from '../identifiers'
import { Timestamp } from './common'

/**
 * Where pushes may go. By default everything but link-local and cloud
 * metadata addresses (169.254.0.0/16, fe80::/10, fd00:ec2::254): a connector
 * URL or connector code must not read a cloud server's instance credentials.
 * `allowedHosts`, when not empty, restricts pushes to the hosts and networks
 * listed (`hooks.example.com`, `*.example.com`, `10.0.0.0/8`, `::1`).
 */
export const OutboundPolicy = z
  .strictObject({
    blockMetadata: z.boolean().default(true).meta({ description: 'Refuse link-local and cloud metadata addresses' }),
    allowedHosts: z
      .array(z.string().trim().min(1).max(253))
      .max(200)
      .default([])
      .meta({ description: 'Host names (`*.` for subdomains), addresses or CIDR networks pushes may reach; empty: any but the blocked ones' }),
  })
  .meta({ id: 'OutboundPolicy' })
export type OutboundPolicy = z.output<typeof OutboundPolicy>

/** One field KiCad gets: whether it is sent, under which name, and whether KiCad shows it on the schematic. */
export const KicadFieldSetting = z
  .strictObject({
    include: z.boolean().default(true),
    name: z.string().trim().min(1).max(100).meta({ description: 'The field name KiCad shows' }),
    visible: z.boolean().default(false).meta({ description: 'Shown on the schematic (KiCad `visible`)' }),
  })
  .meta({ id: 'KicadFieldSetting' })
export type KicadFieldSetting = z.output<typeof KicadFieldSetting>

/** A rule for one parameter type: sent as a field or not, under which name, shown or hidden. */
export const KicadParameterRule = z
  .strictObject({
    type: z.string().trim().min(1).max(200).meta({ description: 'The parameter type (compared as names are: case and width folded)' }),
    include: z.boolean().default(true),
    name: z.string().trim().min(1).max(100).nullable().default(null).meta({ description: 'The field name; null: the type\'s name' }),
    visible: z.boolean().default(false),
  })
  .meta({ id: 'KicadParameterRule' })
export type KicadParameterRule = z.output<typeof KicadParameterRule>

/**
 * What KiCad's HTTP library serves (decision 0634): how long KiCad may cache
 * an answer, which parts and categories it sees, and which fields each part
 * carries. The defaults are what complib served before the settings existed.
 */
export const KicadSettings = z
  .strictObject({
    cacheMaxAge: z.int().min(0).max(86400).default(60).meta({ description: 'Seconds KiCad may reuse an answer without asking (`Cache-Control: max-age`); answers are revalidated with ETag either way' }),
    hideObsolete: z.boolean().default(false).meta({ description: 'Leave obsolete parts out of the categories and their listings (a placed part still resolves by id)' }),
    categoryDepth: z.int().min(1).max(20).nullable().default(null).meta({ description: 'Categories deeper than this are listed under their ancestor at this depth; null: every category as it is' }),
    fields: z
      .strictObject({
        ipn: KicadFieldSetting.default({ include: true, name: 'IPN', visible: false }),
        manufacturer: KicadFieldSetting.default({ include: true, name: 'Manufacturer', visible: false }),
        mpn: KicadFieldSetting.default({ include: true, name: 'MPN', visible: false }),
      })
      .default({ ipn: { include: true, name: 'IPN', visible: false }, manufacturer: { include: true, name: 'Manufacturer', visible: false }, mpn: { include: true, name: 'MPN', visible: false } }),
    parameters: z
      .strictObject({
        others: z.enum(['hidden', 'visible', 'omit']).default('hidden').meta({ description: 'Parameters no rule names: sent as hidden fields, visible ones, or not at all' }),
        rules: z.array(KicadParameterRule).max(200).default([]),
      })
      .default({ others: 'hidden', rules: [] }),
  })
  .superRefine(_checkKicadNames)
  .meta({ id: 'KicadSettings' })
export type KicadSettings = z.output<typeof KicadSettings>

/** Field names KiCad gives a part itself (compared case-insensitively): a setting may not take one. */
export const KICAD_OWN_FIELDS = ['value', 'reference', 'footprint', 'datasheet', 'description', 'keywords'] as const

/**
 * Each field KiCad is sent must have a name of its own: two fields under one
 * name would leave KiCad one of them, and a name KiCad uses itself would hide
 * its own field. Names compare as parameter types do (case and width folded);
 * only the fields and rules that are sent count. One rule per parameter type.
 */
function _checkKicadNames(value: { fields: Record<'ipn' | 'manufacturer' | 'mpn', KicadFieldSetting>; parameters: { rules: KicadParameterRule[] } }, ctx: z.RefinementCtx): void {
  const seen = new Map<string, string>()
  const claim = (name: string, path: PropertyKey[]) => {
    const key = foldKey(name)
    if ((KICAD_OWN_FIELDS as readonly string[]).includes(key)) {
      ctx.addIssue({ code: 'custom', path, message: `"${name}" is a field KiCad fills itself (${KICAD_OWN_FIELDS.join(', ')})` })
      return
    }
    const first = seen.get(key)
    if (first !== undefined) ctx.addIssue({ code: 'custom', path, message: `"${name}" is already the name of ${first}` })
    else seen.set(key, path.join('.'))
  }
  for (const key of ['ipn', 'manufacturer', 'mpn'] as const) if (value.fields[key].include) claim(value.fields[key].name, ['fields', key, 'name'])
  const types = new Set<string>()
  value.parameters.rules.forEach((rule, i) => {
    const type = foldKey(rule.type)
    if (types.has(type)) ctx.addIssue({ code: 'custom', path: ['parameters', 'rules', i, 'type'], message: `a rule for "${rule.type}" is already given` })
    types.add(type)
    if (rule.include) claim(rule.name ?? rule.type, ['parameters', 'rules', i, rule.name === null ? 'type' : 'name'])
  })
}

/** Server settings an admin changes through the API; every server sharing the database reads the same ones. */
export const Settings = z
  .object({
    auditRetentionDays: z.int().min(1).max(36500).nullable().meta({ description: 'Audit entries older than this are pruned daily (the pruning is an entry); null keeps all' }),
    outbound: OutboundPolicy,
    kicad: KicadSettings,
    updatedAt: Timestamp.nullable(),
  })
  .meta({ id: 'Settings' })
export type Settings = z.infer<typeof Settings>

/** Body of `PATCH /api/settings`. */
export const SettingsPatch = z
  .strictObject({
    auditRetentionDays: Settings.shape.auditRetentionDays,
    outbound: OutboundPolicy,
    kicad: KicadSettings,
  })
  .partial()
  .meta({ id: 'SettingsPatch' })
export type SettingsPatch = z.output<typeof SettingsPatch>

export const DEFAULT_SETTINGS: Settings = { auditRetentionDays: null, outbound: { blockMetadata: true, allowedHosts: [] }, kicad: KicadSettings.parse({}), updatedAt: null }
