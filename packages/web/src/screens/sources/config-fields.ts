import type { SourceType, SourceView } from '../../queries/sources'

/**
 * A form field for one property of a source type's config, read off its JSON
 * Schema: text, URL, number, a choice (an enum, or yes/no for a boolean).
 * The form holds every value as typed text; `toConfig` converts.
 */
export interface ConfigField {
  name: string
  label: string
  kind: 'text' | 'url' | 'number' | 'choice'
  /** Write-only: a password input, the current value never shown (its hint is). */
  secret: boolean
  required: boolean
  description: string | undefined
  /** The schema's default, as text: the placeholder of an empty field. */
  placeholder: string | undefined
  choices: string[]
  boolean: boolean
  min: number | undefined
  max: number | undefined
  integer: boolean
}

/** What the form holds: each field's text, by name. */
export type ConfigValues = Record<string, string>

interface PropertySchema {
  type?: string | string[]
  enum?: unknown[]
  anyOf?: PropertySchema[]
  format?: string
  title?: string
  description?: string
  default?: unknown
  minimum?: number
  maximum?: number
}

/** Words an API's field names abbreviate, spelled as people write them. */
const ACRONYMS: Record<string, string> = { api: 'API', url: 'URL', uri: 'URI', id: 'ID', sku: 'SKU', oauth: 'OAuth' }

/** `apiKey` → "API key", `base_url` → "Base URL". */
export function fieldLabel(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((w) => ACRONYMS[w.toLowerCase()] ?? w.toLowerCase())
  const text = words.join(' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/**
 * The fields of a type's config, in the schema's order; `unsupported` names
 * properties this form cannot edit (objects, lists), set through the API instead.
 */
export function configFields(type: SourceType): { fields: ConfigField[]; unsupported: string[] } {
  const schema = type.configSchema as { properties?: Record<string, PropertySchema>; required?: string[] }
  const required = new Set(schema.required ?? [])
  const secret = new Set(type.secretFields)
  const fields: ConfigField[] = []
  const unsupported: string[] = []
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    // A nullable property is `anyOf: [the type, null]`: the form edits the type.
    const prop = raw.anyOf?.find((s) => s.type !== 'null') ?? raw
    const t = Array.isArray(prop.type) ? prop.type.find((x) => x !== 'null') : prop.type
    const kind = prop.enum ? 'choice' : t === 'boolean' ? 'choice' : t === 'number' || t === 'integer' ? 'number' : t === 'string' ? (prop.format === 'uri' ? 'url' : 'text') : undefined
    if (!kind) {
      unsupported.push(name)
      continue
    }
    const fallback = raw.default ?? prop.default
    fields.push({
      name,
      label: raw.title ?? prop.title ?? fieldLabel(name),
      kind,
      secret: secret.has(name),
      required: required.has(name),
      description: raw.description ?? prop.description,
      placeholder: fallback === undefined || fallback === null ? undefined : String(fallback),
      choices: prop.enum ? prop.enum.map(String) : t === 'boolean' ? ['true', 'false'] : [],
      boolean: t === 'boolean',
      min: prop.minimum,
      max: prop.maximum,
      integer: t === 'integer',
    })
  }
  return { fields, unsupported }
}

/** The form's values for a source being edited (secrets empty: left so, they keep their value), or a new one. */
export function initialValues(fields: readonly ConfigField[], source?: SourceView): ConfigValues {
  const values: ConfigValues = {}
  for (const f of fields) {
    const v = f.secret ? undefined : source?.config[f.name]
    values[f.name] = v === undefined || v === null ? '' : String(v)
    // A required choice has no empty option: the select shows its first, so the form holds that.
    if (!values[f.name] && f.kind === 'choice' && f.required) values[f.name] = f.placeholder ?? f.choices[0] ?? ''
  }
  return values
}

/**
 * The config to send. A new source: the fields filled in (the others take
 * their defaults). An edit, merged by the server: a secret left empty is not
 * sent (it keeps its value), a field emptied is sent as null (back to its default).
 */
export function toConfig(fields: readonly ConfigField[], values: ConfigValues, editing?: SourceView): Record<string, unknown> {
  const config: Record<string, unknown> = {}
  for (const f of fields) {
    const text = (values[f.name] ?? '').trim()
    if (text) config[f.name] = f.kind === 'number' ? Number(text) : f.boolean ? text === 'true' : text
    else if (editing && !f.secret && editing.config[f.name] !== undefined) config[f.name] = null
  }
  return config
}
