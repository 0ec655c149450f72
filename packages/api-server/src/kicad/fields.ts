import { DEFAULT_SETTINGS, foldKey, type Attachment, type Component, type KicadSettings } from '@complib/core'
import * as z from 'zod'
import { datasheetPath } from './datasheet-capability'

/**
 * A component as KiCad's HTTP library part: its fields, Value, reference
 * designator and datasheet link. The routes (routes/kicad.ts) load what a
 * part refers to; this file decides what KiCad is sent.
 */

export const KicadField = z.object({ value: z.string(), visible: z.enum(['True', 'False']).optional() })
export const KicadPart = z
  .object({
    id: z.string(),
    name: z.string(),
    symbolIdStr: z.string(),
    exclude_from_bom: z.enum(['True', 'False']),
    exclude_from_board: z.enum(['True', 'False']),
    exclude_from_sim: z.enum(['True', 'False']),
    fields: z.record(z.string(), KicadField),
  })
  .meta({ id: 'KicadPart' })
/** A component as KiCad's HTTP library part. */
export function toKicadPart(
  c: Component,
  refs: { symbol?: string | undefined; footprints: string[]; attachments: Attachment[]; origin: string; valueType?: string | undefined },
  // Which fields KiCad gets, under which names, shown or hidden (decision 0634).
  settings: KicadSettings = DEFAULT_SETTINGS.kicad,
): z.infer<typeof KicadPart> {
  const hidden = (value: string) => ({ value, visible: 'False' as const })
  const fields: Record<string, z.infer<typeof KicadField>> = {
    value: { value: kicadValue(c, refs.valueType), visible: 'True' },
    reference: { value: _reference(c), visible: 'True' },
    // KiCad takes the first as the footprint and offers the others: joined by `;`.
    footprint: hidden(refs.footprints.join(';')),
    datasheet: hidden(datasheetUrl(refs.attachments, refs.origin)),
    description: hidden(c.description ?? c.name),
    // Tags joined by `, ` so a multi-word tag ("high voltage") stays one keyword phrase.
    keywords: hidden(c.tags.join(', ')),
  }
  // Names compare folded, so a parameter `ipn` cannot stand beside the field `IPN`: the first one set keeps the name.
  const taken = new Set(BUILT_IN_FOLDED)
  const put = (name: string, value: string, visible: boolean) => {
    const key = _fold(name)
    if (taken.has(key)) return
    taken.add(key)
    fields[name] = { value, visible: visible ? 'True' : 'False' }
  }
  const { ipn, manufacturer, mpn } = settings.fields
  if (ipn.include) put(ipn.name, c.ipn, ipn.visible)
  c.mpns.forEach((m, i) => {
    // The second and later part numbers follow the chosen name: `MPN 2`, `Manufacturer 2`.
    const suffix = i === 0 ? '' : ` ${i + 1}`
    if (manufacturer.include) put(`${manufacturer.name}${suffix}`, m.manufacturer, manufacturer.visible)
    if (mpn.include) put(`${mpn.name}${suffix}`, m.partNumber, mpn.visible)
  })
  const rules = _rulesOf(settings.parameters)
  for (const p of c.parameters) {
    const rule = rules.get(_fold(p.type))
    const value = `${p.value}${p.unit ?? ''}`
    if (rule) {
      if (rule.include) put(rule.name ?? p.type, value, rule.visible)
    } else if (settings.parameters.others !== 'omit') put(p.type, value, settings.parameters.others === 'visible')
  }
  return {
    id: c.id,
    name: c.ipn,
    symbolIdStr: refs.symbol ?? '',
    // The component's own flags, as the strings boolFromString reads.
    exclude_from_bom: _kicadBool(c.excludeFromBom),
    exclude_from_board: _kicadBool(c.excludeFromBoard),
    exclude_from_sim: _kicadBool(c.excludeFromSim),
    fields,
  }
}

/** The fields every part has, folded: a setting's name never takes one of them. */
const BUILT_IN_FOLDED = ['value', 'reference', 'footprint', 'datasheet', 'description', 'keywords'].map(foldKey)

/**
 * Names folded once: a listing of 25,000 parts folds the same few field and
 * parameter names over and over (foldKey normalises Unicode). Bounded: past
 * FOLD_MEMO_MAX names it starts again.
 */
const FOLD_MEMO_MAX = 10_000
const folded = new Map<string, string>()
function _fold(name: string): string {
  let key = folded.get(name)
  if (key === undefined) {
    if (folded.size >= FOLD_MEMO_MAX) folded.clear()
    key = foldKey(name)
    folded.set(name, key)
  }
  return key
}

/** A settings object's parameter rules by folded type, made once per settings object (a listing passes the same one for every part). */
const rulesMemo = new WeakMap<KicadSettings['parameters'], Map<string, KicadSettings['parameters']['rules'][number]>>()
function _rulesOf(parameters: KicadSettings['parameters']): Map<string, KicadSettings['parameters']['rules'][number]> {
  let rules = rulesMemo.get(parameters)
  if (!rules) {
    rules = new Map(parameters.rules.map((r) => [_fold(r.type), r]))
    rulesMemo.set(parameters, rules)
  }
  return rules
}

/** Parameter types whose value is what a passive part shows as its KiCad Value. */
const VALUE_LIKE = ['resistance', 'capacitance', 'inductance', 'impedance', 'frequency']

/**
 * The Value KiCad shows (decision 0631): the component's `kicadValue` when set;
 * else the parameter its category's templates mark as the value (`valueType`,
 * decision 0440), when the part has it; else a
 * parameter named `Value` when the part has one; else, for a passive
 * (reference R, C, L, Y, FB), its resistance, capacitance, inductance,
 * impedance or frequency with its unit; else the part's name. So 2N7002
 * shows "2N7002", not its first parameter.
 */
export function kicadValue(c: Component, valueType?: string): string {
  if (c.kicadValue) return c.kicadValue
  const key = valueType === undefined ? undefined : _fold(valueType)
  const templated = key === undefined ? undefined : c.parameters.find((p) => _fold(p.type) === key)
  if (templated) return `${templated.value}${templated.unit ?? ''}`
  const explicit = c.parameters.find((p) => p.type.toLowerCase() === 'value')
  if (explicit) return `${explicit.value}${explicit.unit ?? ''}`
  if (['R', 'C', 'L', 'Y', 'FB'].includes(_reference(c))) {
    for (const type of VALUE_LIKE) {
      const p = c.parameters.find((q) => q.type.toLowerCase() === type)
      if (p) return `${p.value}${p.unit ?? ''}`
    }
  }
  return c.name
}

/**
 * A datasheet URL KiCad can open (decision 0639): a link attachment's own URL;
 * for an uploaded file, a link carrying that attachment's capability, which
 * opens its content without a credential (KiCad's browser has none).
 */
export function datasheetUrl(attachments: Attachment[], origin: string): string {
  const datasheet = attachments.find((a) => a.kind === 'datasheet') ?? attachments.find((a) => /\.pdf$/i.test(a.name))
  if (!datasheet) return ''
  if (datasheet.url) return datasheet.url
  return datasheet.sha256 ? `${origin}${datasheetPath(datasheet.id, datasheet.sha256)}` : ''
}

function _kicadBool(flag: boolean): 'True' | 'False' {
  return flag ? 'True' : 'False'
}

const REFERENCES: Array<[RegExp, string]> = [
  [/resistor|^res/i, 'R'],
  [/capacitor|^cap/i, 'C'],
  [/ferrite ?bead/i, 'FB'],
  [/inductor|^ind/i, 'L'],
  [/diode|led/i, 'D'],
  [/transistor|mosfet|fet\b/i, 'Q'],
  [/connector|header/i, 'J'],
  [/crystal|oscillator/i, 'Y'],
  [/fuse/i, 'F'],
  [/switch|button/i, 'SW'],
]

function _reference(c: Component): string {
  const given = c.parameters.find((p) => p.type.toLowerCase() === 'reference')
  if (given) return given.value
  // The innermost category names the kind of part: Passives/Resistors/Thick film is a resistor.
  const path = (c.category ?? '').split('/').reverse()
  for (const segment of path) {
    const found = REFERENCES.find(([re]) => re.test(segment))
    if (found) return found[1]
  }
  return 'U'
}
