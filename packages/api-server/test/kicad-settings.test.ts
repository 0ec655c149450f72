import { describe, expect, it } from 'vitest'
import { addToken, addUser, bearer } from './accounts'
import { useTestApi } from './harness'

const api = useTestApi()

/** The fields KiCad gets for a part. */
const fieldsOf = async (id: string): Promise<Record<string, { value: string; visible?: string }>> => (await api.ok('GET', `/api/kicad/v1/parts/${id}.json`)).fields

/** A part with two manufacturer part numbers and three parameters. */
async function part() {
  return await api.ok(
    'POST',
    '/api/components',
    {
      name: 'R 10k 0603',
      ipn: 'RES-00001',
      category: 'Resistors',
      parameters: [
        { type: 'Resistance', value: '10k', unit: 'Ω' },
        { type: 'Tolerance', value: '1%' },
        { type: 'Power', value: '0.1', unit: 'W' },
      ],
      mpns: [
        { manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' },
        { manufacturer: 'Vishay', partNumber: 'CRCW060310K0FK' },
      ],
    },
    201,
  )
}

/** Every field but KiCad's own, as name → [value, visible]. */
async function ownFields(id: string): Promise<Record<string, [string, string | undefined]>> {
  const out: Record<string, [string, string | undefined]> = {}
  for (const [name, f] of Object.entries(await fieldsOf(id))) if (!['value', 'reference', 'footprint', 'datasheet', 'description', 'keywords'].includes(name)) out[name] = [f.value, f.visible]
  return out
}

describe('KiCad settings: the fields of a part', () => {
  it('by default: IPN, Manufacturer and MPN (then `MPN 2`…) and every parameter, all hidden', async () => {
    const c = await part()
    expect(await ownFields(c.id)).toEqual({
      IPN: ['RES-00001', 'False'],
      Manufacturer: ['Yageo', 'False'],
      MPN: ['RC0603FR-0710KL', 'False'],
      'Manufacturer 2': ['Vishay', 'False'],
      'MPN 2': ['CRCW060310K0FK', 'False'],
      Resistance: ['10kΩ', 'False'],
      Tolerance: ['1%', 'False'],
      Power: ['0.1W', 'False'],
    })
  })

  it('IPN, Manufacturer and MPN: left out, renamed (later numbers follow the name) or shown', async () => {
    const c = await part()
    await api.ok('PATCH', '/api/settings', {
      kicad: {
        fields: { ipn: { include: false, name: 'IPN' }, manufacturer: { name: 'Maker', visible: true }, mpn: { name: 'Part number', visible: false } },
        parameters: { others: 'omit' },
      },
    })
    expect(await ownFields(c.id)).toEqual({
      Maker: ['Yageo', 'True'],
      'Part number': ['RC0603FR-0710KL', 'False'],
      'Maker 2': ['Vishay', 'True'],
      'Part number 2': ['CRCW060310K0FK', 'False'],
    })
    await api.ok('PATCH', '/api/settings', { kicad: { fields: { ipn: { name: 'Internal PN', visible: true }, manufacturer: { include: false, name: 'Manufacturer' }, mpn: { include: false, name: 'MPN' } }, parameters: { others: 'omit' } } })
    expect(await ownFields(c.id)).toEqual({ 'Internal PN': ['RES-00001', 'True'] })
  })

  it('parameters: each by its rule (type compared folded), the others hidden, shown or left out', async () => {
    const c = await part()
    const rules = [
      { type: 'TOLERANCE', name: 'Tol', visible: true },
      { type: 'power', include: false },
      { type: 'Voltage', name: 'V' },
    ]
    const fields = { ipn: { include: false, name: 'IPN' }, manufacturer: { include: false, name: 'Manufacturer' }, mpn: { include: false, name: 'MPN' } }
    await api.ok('PATCH', '/api/settings', { kicad: { fields, parameters: { others: 'visible', rules } } })
    expect(await ownFields(c.id)).toEqual({ Resistance: ['10kΩ', 'True'], Tol: ['1%', 'True'] })
    await api.ok('PATCH', '/api/settings', { kicad: { fields, parameters: { others: 'hidden', rules } } })
    expect(await ownFields(c.id)).toEqual({ Resistance: ['10kΩ', 'False'], Tol: ['1%', 'True'] })
    await api.ok('PATCH', '/api/settings', { kicad: { fields, parameters: { others: 'omit', rules: [{ type: 'Resistance', visible: true }] } } })
    expect(await ownFields(c.id)).toEqual({ Resistance: ['10kΩ', 'True'] })
  })

  it('a parameter named like a field KiCad or a setting already gives keeps out of the way', async () => {
    const c = await api.ok('POST', '/api/components', { name: 'odd', ipn: 'ODD-1', category: 'Misc', parameters: [{ type: 'ipn', value: 'x' }, { type: 'Datasheet', value: 'y' }] }, 201)
    const fields = await fieldsOf(c.id)
    expect(fields.IPN).toEqual({ value: 'ODD-1', visible: 'False' })
    expect(fields.datasheet).toEqual({ value: '', visible: 'False' })
    expect(Object.keys(fields).filter((k) => ['ipn', 'datasheet'].includes(k.toLowerCase()))).toEqual(['datasheet', 'IPN'])
  })

  it('a patch replaces the whole kicad object: what it leaves out goes back to its default', async () => {
    await api.ok('PATCH', '/api/settings', { kicad: { hideObsolete: true, fields: { ipn: { name: 'PN' } } } })
    const settings = await api.ok('PATCH', '/api/settings', { kicad: { cacheMaxAge: 5 } })
    expect(settings.kicad).toMatchObject({ cacheMaxAge: 5, hideObsolete: false, fields: { ipn: { include: true, name: 'IPN', visible: false } } })
    expect(await api.ok('GET', '/api/settings/kicad')).toEqual(settings.kicad)
  })
})

describe('KiCad settings: the preview', () => {
  it('applies the settings given to a part without saving them, as the KiCad route would once saved', async () => {
    const c = await part()
    const kicad = { fields: { mpn: { name: 'Part number', visible: true } }, parameters: { others: 'omit', rules: [{ type: 'tolerance', name: 'Tol' }] } }
    const preview = await api.ok('POST', '/api/settings/kicad/preview', { componentId: c.id, kicad })
    expect(preview.fields['Part number']).toEqual({ value: 'RC0603FR-0710KL', visible: 'True' })
    expect(preview.fields.Tol).toEqual({ value: '1%', visible: 'False' })
    expect(preview.fields.Power).toBeUndefined()
    // Nothing saved: KiCad still gets the defaults, until the same settings are.
    expect((await fieldsOf(c.id)).MPN).toEqual({ value: 'RC0603FR-0710KL', visible: 'False' })
    await api.ok('PATCH', '/api/settings', { kicad })
    expect(await api.ok('GET', `/api/kicad/v1/parts/${c.id}.json`)).toEqual(preview)
  })

  it('refuses settings PATCH would refuse, and an unknown part', async () => {
    const c = await part()
    const bad = await api.call('POST', '/api/settings/kicad/preview', { body: { componentId: c.id, kicad: { fields: { ipn: { name: 'Keywords' } } } } })
    expect(bad.status).toBe(400)
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toContain('body.kicad.fields.ipn.name')
    expect((await api.call('POST', '/api/settings/kicad/preview', { body: { componentId: 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ', kicad: {} } })).status).toBe(404)
  })
})

describe('KiCad settings: refused ones', () => {
  const bad: Array<[string, unknown, string]> = [
    ['two fields under one name', { fields: { ipn: { name: 'Part' }, manufacturer: { name: 'part' } } }, 'body.kicad.fields.manufacturer.name'],
    ['a field named as KiCad’s own', { fields: { mpn: { name: 'Datasheet' } } }, 'body.kicad.fields.mpn.name'],
    ['a rule named as KiCad’s own, in another case', { parameters: { rules: [{ type: 'Tolerance', name: 'VALUE' }] } }, 'body.kicad.parameters.rules[0].name'],
    ['a rule whose type is KiCad’s own name and gives no other', { parameters: { rules: [{ type: 'Description' }] } }, 'body.kicad.parameters.rules[0].type'],
    ['a rule named as a field', { parameters: { rules: [{ type: 'Tolerance', name: 'mpn' }] } }, 'body.kicad.parameters.rules[0].name'],
    ['two rules for one type', { parameters: { rules: [{ type: 'Tolerance' }, { type: 'TOLERANCE', include: false }] } }, 'body.kicad.parameters.rules[1].type'],
    ['an unknown others', { parameters: { others: 'shown' } }, 'body.kicad.parameters.others'],
    ['a negative max-age', { cacheMaxAge: -1 }, 'body.kicad.cacheMaxAge'],
  ]
  for (const [what, kicad, path] of bad) {
    it(`400 naming the field, nothing changed: ${what}`, async () => {
      const before = await api.ok('GET', '/api/settings')
      const res = await api.call('PATCH', '/api/settings', { body: { auditRetentionDays: 30, kicad } })
      expect(res.status).toBe(400)
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path)
      expect(await api.ok('GET', '/api/settings')).toEqual(before)
    })
  }

  it('a field that is not sent may share a name; a rule that leaves its type out may too', async () => {
    const settings = await api.ok('PATCH', '/api/settings', {
      kicad: { fields: { ipn: { include: false, name: 'MPN' } }, parameters: { rules: [{ type: 'Value', include: false }] } },
    })
    expect(settings.kicad.fields.ipn).toEqual({ include: false, name: 'MPN', visible: false })
  })
})

describe('KiCad settings: who may change them', () => {
  it('a viewer and an editor read them but cannot change them; an admin can', async () => {
    const viewer = await addUser(api.storage, 'vera', 'viewer')
    const editor = await addUser(api.storage, 'ed', 'editor')
    const admin = await addUser(api.storage, 'ada', 'admin')
    const tokens = { viewer: bearer(await addToken(api.storage, viewer, 'read')), editor: bearer(await addToken(api.storage, editor, 'write')), admin: bearer(await addToken(api.storage, admin, 'admin')) }
    const body = { kicad: { fields: { ipn: { name: 'PN' } } } }
    expect((await api.call('GET', '/api/settings/kicad')).status).toBe(401)
    for (const who of ['viewer', 'editor'] as const) {
      expect((await api.call('GET', '/api/settings/kicad', { headers: tokens[who] })).body.fields.ipn.name).toBe('IPN')
      expect((await api.call('PATCH', '/api/settings', { body, headers: tokens[who] })).status).toBe(403)
    }
    expect((await api.call('GET', '/api/settings/kicad', { headers: tokens.viewer })).body.fields.ipn.name).toBe('IPN')
    expect((await api.call('PATCH', '/api/settings', { body, headers: tokens.admin })).status).toBe(200)
    expect((await api.call('GET', '/api/settings/kicad', { headers: tokens.viewer })).body.fields.ipn.name).toBe('PN')
  })
})

describe('KiCad datasheet link', () => {
  const pdf = new TextEncoder().encode('%PDF-1.4 datasheet')

  it('a link attachment gives its own URL', async () => {
    const c = await part()
    await api.ok('POST', '/api/attachments/from-url', { url: 'https://example.com/ds/rc0603.pdf', componentId: c.id, kind: 'datasheet' }, 201)
    expect((await fieldsOf(c.id)).datasheet!.value).toBe('https://example.com/ds/rc0603.pdf')
  })

  it('an uploaded one opens without a credential through its capability, which opens only that file', async () => {
    // Accounts on: no credential reads the library, yet the link opens the file.
    const admin = await addUser(api.storage, 'ada', 'admin')
    const token = await addToken(api.storage, admin, 'admin')
    const as = bearer(token)
    const c = (await api.call('POST', '/api/components', { body: { name: 'R', ipn: 'RES-1', category: 'Resistors' }, headers: as })).body
    const up = await api.call('POST', `/api/attachments?name=rc0603.pdf&componentId=${c.id}`, { rawBody: pdf, headers: { 'content-type': 'application/pdf', ...as } })
    const other = await api.call('POST', '/api/attachments?name=other.pdf', { rawBody: new TextEncoder().encode('%PDF other'), headers: { 'content-type': 'application/pdf', ...as } })
    const link = (await api.call('GET', `/api/kicad/v1/parts/${c.id}.json`, { headers: as })).body.fields.datasheet.value as string
    expect(link).not.toContain(token)
    const url = new URL(link)
    expect(url.pathname).toMatch(new RegExp(`^/api/attachments/${up.body.id}/datasheet/[A-Za-z0-9_-]{43}$`))
    expect((await api.call('GET', `/api/attachments/${up.body.id}/content`)).status).toBe(401)
    const got = await api.call('GET', url.pathname)
    expect(got.status).toBe(200)
    expect(got.text).toBe('%PDF-1.4 datasheet')
    expect(got.headers.get('content-disposition')).toContain('attachment')
    expect(got.headers.get('content-security-policy')).toBe('sandbox')
    // The capability belongs to its attachment: not another's, not a changed one.
    const capability = url.pathname.split('/').pop()!
    expect((await api.call('GET', `/api/attachments/${other.body.id}/datasheet/${capability}`)).status).toBe(404)
    const changed = capability.slice(0, -1) + (capability.endsWith('A') ? 'B' : 'A')
    expect((await api.call('GET', `/api/attachments/${up.body.id}/datasheet/${changed}`)).status).toBe(404)
    expect((await api.call('GET', `/api/attachments/${up.body.id}/datasheet/short`)).status).toBe(400)
    // Deleting the attachment ends the link.
    expect((await api.call('DELETE', `/api/attachments/${up.body.id}`, { headers: as })).status).toBe(204)
    expect((await api.call('GET', url.pathname)).status).toBe(404)
  })

  it('a link attachment has no capability link', async () => {
    const a = await api.ok('POST', '/api/attachments/from-url', { url: 'https://example.com/x.pdf' }, 201)
    expect((await api.call('GET', `/api/attachments/${a.id}/datasheet/${'A'.repeat(43)}`)).status).toBe(404)
  })
})
