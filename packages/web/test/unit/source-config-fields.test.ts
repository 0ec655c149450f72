import { describe, expect, it } from 'vitest'
import type { SourceType, SourceView } from '../../src/queries/sources'
import { configFields, fieldLabel, initialValues, toConfig } from '../../src/screens/sources/config-fields'

/** A type as `GET /api/sources/types` answers it (Mouser's schema, with a few more kinds of field). */
const TYPE: SourceType = {
  type: 'mouser',
  title: 'Mouser',
  description: '',
  documentation: 'https://api.mouser.com/api/docs/ui/index',
  configSchema: {
    type: 'object',
    properties: {
      apiKey: { type: 'string', minLength: 1, description: 'The Search API key' },
      baseUrl: { default: 'https://api.mouser.com', type: 'string', format: 'uri' },
      region: { type: 'string', enum: ['eu', 'us'], default: 'eu' },
      pageSize: { anyOf: [{ type: 'integer', minimum: 1, maximum: 50 }, { type: 'null' }] },
      sandbox: { type: 'boolean' },
      headers: { type: 'object' },
    },
    required: ['apiKey'],
  },
  secretFields: ['apiKey'],
  capabilities: { search: true, offers: true, lifecycle: true },
  limits: { requestsPerMinute: 30, requestsPerDay: 1000 },
}

const SOURCE = { id: 'src_1', type: 'mouser', name: 'Mouser', config: { baseUrl: 'http://127.0.0.1:9', region: 'us' }, secretHints: { apiKey: '…9c21' }, version: 3 } as unknown as SourceView

describe('a source type config schema as form fields', () => {
  it('reads each property as a field: secrets, URLs, choices, nullable numbers, yes/no; objects are left to the API', () => {
    const { fields, unsupported } = configFields(TYPE)
    expect(fields.map((f) => [f.name, f.label, f.kind, f.secret, f.required])).toEqual([
      ['apiKey', 'API key', 'text', true, true],
      ['baseUrl', 'Base URL', 'url', false, false],
      ['region', 'Region', 'choice', false, false],
      ['pageSize', 'Page size', 'number', false, false],
      ['sandbox', 'Sandbox', 'choice', false, false],
    ])
    expect(fields[1]!.placeholder).toBe('https://api.mouser.com')
    expect(fields[2]!.choices).toEqual(['eu', 'us'])
    expect([fields[3]!.min, fields[3]!.max, fields[3]!.integer]).toEqual([1, 50, true])
    expect(fields[4]!.boolean).toBe(true)
    expect(unsupported).toEqual(['headers'])
  })

  it('spells field names as people do', () => {
    expect(['apiKey', 'baseUrl', 'client_id', 'clientSecret', 'oauthTokenUrl'].map(fieldLabel)).toEqual(['API key', 'Base URL', 'Client ID', 'Client secret', 'OAuth token URL'])
  })

  it('a new source sends what was filled in, converted; the rest takes its defaults', () => {
    const { fields } = configFields(TYPE)
    const values = { ...initialValues(fields), apiKey: ' key-1 ', pageSize: '20', sandbox: 'false' }
    expect(toConfig(fields, values)).toEqual({ apiKey: 'key-1', pageSize: 20, sandbox: false })
  })

  it('an edit starts from the kept config, never a secret; a secret left empty is not sent, a field emptied is reset', () => {
    const { fields } = configFields(TYPE)
    const values = initialValues(fields, SOURCE)
    expect(values).toEqual({ apiKey: '', baseUrl: 'http://127.0.0.1:9', region: 'us', pageSize: '', sandbox: '' })
    expect(toConfig(fields, { ...values, region: '' }, SOURCE)).toEqual({ baseUrl: 'http://127.0.0.1:9', region: null })
    expect(toConfig(fields, { ...values, apiKey: 'new-key' }, SOURCE)).toMatchObject({ apiKey: 'new-key' })
  })
})
