import { randomUUID } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { GraphQLError, Kind, parse, type DocumentNode, type FieldNode, type OperationDefinitionNode, type SelectionSetNode, type ValueNode } from 'graphql'
import { sendJson, startFake, type Fake, type SeenRequest } from './serve'

/*
 * A fake of Nexar's identity server and Supply GraphQL API, answering in the
 * shapes Nexar documents:
 * - POST /connect/token — https://support.nexar.com/support/solutions/articles/101000434603-jquery-example-to-generate-an-access-token
 *   and https://www.altium.com/documentation/altium-developer-center/octopart/api/authorization:
 *   an x-www-form-urlencoded `grant_type=client_credentials`, `client_id`,
 *   `client_secret`, `scope=supply.domain`, answered `{ access_token,
 *   expires_in: 86400, token_type: "Bearer", scope: "supply.domain" }`.
 *   Nexar's identity server is IdentityServer (https://docs.nexar.com/faq/ides-and-access,
 *   "Nexar uses the Identity Server model"), which refuses wrong client
 *   credentials with the OAuth2 error of RFC 6749 §5.2
 *   (https://www.rfc-editor.org/rfc/rfc6749#section-5.2): 400 `{ "error": "invalid_client" }`;
 *   an unknown grant type is `unsupported_grant_type`, another scope `invalid_scope`.
 * - POST /graphql — the GraphQL request `{ query, variables, operationName }`
 *   (https://graphql.github.io/graphql-over-http/draft/#sec-POST). The fields
 *   and types it answers are those of Nexar's published schema,
 *   https://github.com/NexarDeveloper/web-supply-demo-blazor/blob/main/Nexar.Client/schema.graphql:
 *   `supSearchMpn(q, country, currency, start, limit)` and `supSearch(…)`
 *   → SupPartResultSet `{ hits, results: [{ part }] }`; `supParts(ids, country,
 *   currency)` → `[SupPart]!`, here null for an id it does not know (the
 *   list's items are nullable; `answerUnknownIds('omitted')` leaves them out
 *   instead); SupPart, SupCompany, SupSpec, SupAttribute, SupCategory,
 *   SupDocument, SupImage, SupDescription, SupPartSeller (`sellers(includeBrokers:
 *   false)` by default), SupOffer, SupPricePoint. The selection is answered
 *   field by field as asked (aliases too); a field the type does not have is
 *   refused before anything runs, as Nexar's Hot Chocolate server does
 *   ("GraphQL is parsed by our .NET servers … using a technology called Hot
 *   Chocolate", https://docs.nexar.com/faq/ides-and-access), with its
 *   message "The field `x` does not exist on the type `Y`." — as status 400
 *   with application/graphql-response+json when the client accepts it, per
 *   https://graphql.github.io/graphql-over-http/draft/#sec-application-graphql-response-json.
 * - A missing or unknown token — https://support.nexar.com/support/solutions/articles/101000452406-application-access-token:
 *   `{ errors: [{ message: "Token validation failed. Please provide a valid
 *   access token.", extensions: { code: "AuthInvalidToken" } }] }`, with 401
 *   ("Requests without a valid token, or with an expired token, will return
 *   an HTTP 401 Unauthorized response", the authorization page above).
 * - A spent part limit — https://support.nexar.com/support/solutions/articles/101000437414-what-error-is-returned-when-the-part-limit-is-reached-:
 *   status 500 and `{ errors: [{ message: "You have exceeded your part limit
 *   of …", extensions: { remote: { message }, schemaName: "Supply" } }] }`.
 * - Values: the `lifecyclestatus` spec (id 910) as
 *   https://support.nexar.com/support/solutions/articles/101000434626-supply-lifecycle-information-for-parts
 *   shows it; `inventoryLevel` special codes (-1 … -4) from
 *   https://www.altium.com/documentation/altium-developer-center/octopart/api/inventory;
 *   the category tree's root 4161 "Electronic Parts" from
 *   https://support.nexar.com/support/solutions/articles/101000452499-reference-values-queries.
 *   Part ids, prices and stock are made up.
 * Each part returned counts as Nexar counts it against the part limit
 * (https://support.nexar.com/support/solutions/articles/101000476314-part-limits-and-how-they-work).
 */

export const NEXAR_FAKE_CLIENT_ID = 'fake-nexar-client-id-5d2e81'
export const NEXAR_FAKE_SECRET = 'fake-nexar-client-secret-7c40b9f1'
export const NEXAR_TOKEN_PATH = '/connect/token'
export const NEXAR_GRAPHQL_PATH = '/graphql'

export interface NexarFake extends Fake {
  /** The fake's token endpoint and GraphQL endpoint, for a source's config. */
  tokenUrl: string
  apiUrl: string
  /** Parts returned so far, as Nexar counts them against the part limit. */
  partsReturned(): number
  /** Every token issued so far stops being accepted. */
  revokeTokens(): void
  /** Every token is refused, new ones too (as for an application whose supply access was withdrawn); `false` ends it. */
  refuseTokens(refuse: boolean): void
  /** The part limit is spent (or, with `false`, not). */
  exhaustPartLimit(spent: boolean): void
  /** The schema loses a field, as after a change of Nexar's schema. */
  dropField(type: string, field: string): void
  /** Every dropped field back. */
  restoreFields(): void
  /** How `supParts` answers an id it does not know: a null item (the default) or no item. */
  answerUnknownIds(how: 'null' | 'omitted'): void
}

// ---------------------------------------------------------------------------
// The schema, as far as the fake answers it: each type's fields, and the
// type of those that are objects (null for a scalar).

const SCHEMA: Record<string, Record<string, string | null>> = {
  Query: { supSearchMpn: 'SupPartResultSet', supSearch: 'SupPartResultSet', supParts: 'SupPart' },
  SupPartResultSet: { hits: null, total: null, results: 'SupPartResult', warnings: null },
  SupPartResult: { part: 'SupPart', description: null, akaMpn: null },
  SupPart: {
    id: null,
    name: null,
    mpn: null,
    genericMpn: null,
    manufacturer: 'SupCompany',
    shortDescription: null,
    descriptions: 'SupDescription',
    images: 'SupImage',
    specs: 'SupSpec',
    slug: null,
    octopartUrl: null,
    category: 'SupCategory',
    bestImage: 'SupImage',
    bestDatasheet: 'SupDocument',
    totalAvail: null,
    avgAvail: null,
    sellers: 'SupPartSeller',
    akaMpns: null,
    medianPrice1000: 'SupPricePoint',
  },
  SupCompany: { id: null, name: null, aliases: null, homepageUrl: null, slug: null, isVerified: null, isDistributorApi: null },
  SupDescription: { text: null, creditString: null, creditUrl: null },
  SupImage: { url: null, creditString: null, creditUrl: null },
  SupDocument: { name: null, pageCount: null, url: null, creditString: null, creditUrl: null, mimeType: null },
  SupSpec: { attribute: 'SupAttribute', value: null, siValue: null, valueType: null, units: null, unitsName: null, unitsSymbol: null, displayValue: null },
  SupAttribute: { id: null, name: null, shortname: null, group: null, valueType: null, unitsName: null, unitsSymbol: null },
  SupCategory: { id: null, parentId: null, name: null, path: null, numParts: null, ancestors: 'SupCategory', children: 'SupCategory' },
  SupPartSeller: { company: 'SupCompany', country: null, offers: 'SupOffer', isAuthorized: null, isBroker: null, isRfq: null },
  SupOffer: {
    id: null,
    sku: null,
    eligibleRegion: null,
    inventoryLevel: null,
    packaging: null,
    moq: null,
    prices: 'SupPricePoint',
    clickUrl: null,
    internalUrl: null,
    updated: null,
    factoryLeadDays: null,
    onOrderQuantity: null,
    factoryPackQuantity: null,
    orderMultiple: null,
    multipackQuantity: null,
    isCustomPricing: null,
  },
  SupPricePoint: { quantity: null, price: null, currency: null, convertedPrice: null, convertedCurrency: null, conversionRate: null },
}

// ---------------------------------------------------------------------------
// The parts

type Json = Record<string, unknown>

const RATES: Record<string, number> = { USD: 1, EUR: 0.92, GBP: 0.79 }

const attribute = (id: string, name: string, shortname: string, group = 'Technical') => ({ id, name, shortname, group, valueType: 'text', unitsName: '', unitsSymbol: '' })

/** A SupSpec; `units` is the symbol the value is in (empty for none). */
function spec(attr: ReturnType<typeof attribute>, value: string, units = '', display = units ? `${value} ${units}` : value): Json {
  return { attribute: attr, value, siValue: value, valueType: units ? 'number' : 'text', units, unitsName: units, unitsSymbol: units, displayValue: display }
}

const LIFECYCLE = attribute('910', 'Lifecycle Status', 'lifecyclestatus', 'Compliance')
const MAKER_LIFECYCLE = attribute('942', 'Manufacturer Lifecycle Status', 'manufacturerlifecyclestatus', 'Compliance')
const CASE = attribute('842', 'Case/Package', 'case_package', 'Physical')
const ROHS = attribute('531', 'RoHS', 'rohs', 'Compliance')
const CHANNELS = attribute('424', 'Number of Channels', 'numberofchannels')
const GBW = attribute('478', 'Gain Bandwidth Product', 'gainbandwidthproduct')
const SUPPLY = attribute('616', 'Max Supply Voltage', 'maxsupplyvoltage')
const PINS = attribute('590', 'Number of Pins', 'numberofpins', 'Physical')

const lifecycle = (status: string, updated: string) => spec(LIFECYCLE, status, '', `${status} (Last Updated: ${updated})`)

/** The op-amp category, under the tree's root 4161 (ancestors root first, each with its parent). */
const OP_AMPS = {
  id: '6399',
  parentId: '4219',
  name: 'Operational Amplifiers - Op Amps',
  path: '/electronic-parts/integrated-circuits-ics/linear-ics/operational-amplifiers-op-amps',
  numParts: 84512,
  ancestors: [
    { id: '4161', parentId: '', name: 'Electronic Parts', path: '/electronic-parts', numParts: 71234567, ancestors: [], children: [] },
    { id: '4215', parentId: '4161', name: 'Integrated Circuits (ICs)', path: '/electronic-parts/integrated-circuits-ics', numParts: 5123456, ancestors: [], children: [] },
    { id: '4219', parentId: '4215', name: 'Linear ICs', path: '/electronic-parts/integrated-circuits-ics/linear-ics', numParts: 412345, ancestors: [], children: [] },
  ],
  children: [],
}

const company = (id: string, name: string) => ({ id, name, aliases: [], homepageUrl: `https://www.${name.toLowerCase().replace(/[^a-z]+/g, '')}.com`, slug: name.toLowerCase().replace(/[^a-z]+/g, '-'), isVerified: false, isDistributorApi: true })
const TI = company('370', 'Texas Instruments')
const ST = company('521', 'STMicroelectronics')
const NATIONAL = company('400', 'National Semiconductor')

type Breaks = Array<[number, number, string?]>

/** A SupOffer; price points in USD unless a break names its currency. */
function offer(id: string, sku: string, stock: number, packaging: string | null, moq: number | null, multiple: number | null, breaks: Breaks): Json {
  return {
    id,
    sku,
    eligibleRegion: 'US',
    inventoryLevel: stock,
    packaging,
    moq,
    prices: breaks.map(([quantity, price, currency = 'USD']) => ({ quantity, price, currency })),
    clickUrl: `https://octopart.com/click/track?ct=offers&ai=8a1e4714&sig=0a3d&sid=${id}`,
    internalUrl: `https://octopart.com/opatz/offer/${id}`,
    updated: '2026-11-25T08:00:00Z',
    factoryLeadDays: 42,
    onOrderQuantity: null,
    factoryPackQuantity: multiple,
    orderMultiple: multiple,
    multipackQuantity: null,
    isCustomPricing: false,
  }
}

const seller = (c: ReturnType<typeof company>, offers: Json[], flags: { broker?: boolean; authorized?: boolean } = {}): Json => ({
  company: c,
  country: 'US',
  offers,
  isAuthorized: flags.authorized ?? !flags.broker,
  isBroker: flags.broker ?? false,
  isRfq: false,
})

const DIGIKEY = company('459', 'Digi-Key')
const MOUSER = company('2401', 'Mouser')
const ARROW = company('2628', 'Arrow Electronics')
const FARNELL = company('1106', 'Farnell')
const ROCHESTER = company('3261', 'Rochester Electronics')
const BROKER = company('12947', 'Quest Components')

interface _PartSpec {
  id: string
  mpn: string
  manufacturer: ReturnType<typeof company>
  description: string
  specs: Json[]
  sellers: Json[]
  datasheet: string | null
  image: string | null
}

/** A SupPart from the few fields that differ between the fake's parts. */
function part(p: _PartSpec): Json {
  const slug = `/${p.mpn.toLowerCase()}-${p.manufacturer.slug}-${p.id}`
  const offers = p.sellers.filter((s) => !s.isBroker).flatMap((s) => s.offers as Json[])
  const stocks = offers.map((o) => Math.max(0, o.inventoryLevel as number))
  return {
    id: p.id,
    name: `${p.manufacturer.name} ${p.mpn}`,
    mpn: p.mpn,
    genericMpn: p.mpn.replace(/[^A-Z0-9]+$/i, ''),
    manufacturer: p.manufacturer,
    shortDescription: p.description,
    descriptions: [{ text: p.description, creditString: p.manufacturer.name, creditUrl: p.manufacturer.homepageUrl }],
    images: p.image ? [{ url: p.image, creditString: p.manufacturer.name, creditUrl: p.manufacturer.homepageUrl }] : [],
    specs: p.specs,
    slug,
    octopartUrl: `https://octopart.com${slug}`,
    category: OP_AMPS,
    bestImage: p.image ? { url: p.image, creditString: p.manufacturer.name, creditUrl: p.manufacturer.homepageUrl } : null,
    bestDatasheet: p.datasheet ? { name: `${p.mpn} Datasheet`, pageCount: 42, url: p.datasheet, creditString: p.manufacturer.name, creditUrl: p.manufacturer.homepageUrl, mimeType: 'application/pdf' } : null,
    totalAvail: stocks.reduce((a, b) => a + b, 0),
    avgAvail: stocks.length ? stocks.reduce((a, b) => a + b, 0) / stocks.length : 0,
    sellers: p.sellers,
    akaMpns: [],
    medianPrice1000: null,
  }
}

const TI_DATASHEET = 'https://www.ti.com/lit/ds/symlink/lm358.pdf'
const opampSpecs = (status: Json, pkg: string, rohs: string) => [
  status,
  spec(MAKER_LIFECYCLE, 'ACTIVE', '', 'ACTIVE (Last Updated: 6 hours ago)'),
  spec(CASE, pkg),
  spec(CHANNELS, '2'),
  spec(GBW, '700', 'kHz'),
  spec(SUPPLY, '32', 'V'),
  spec(PINS, '8'),
  spec(ROHS, rohs),
]

/** 26 sellers with two offers each: more than the contract's 50. */
const MANY_SELLERS = Array.from({ length: 26 }, (_, i) => {
  const n = String(i + 1).padStart(2, '0')
  return seller(company(`9${n}`, `Distributor ${n}`), [offer(`9${n}1`, `D${n}-LM358DRG4-CT`, 100 + i, 'Cut Tape', 1, null, [[1, 0.6]]), offer(`9${n}2`, `D${n}-LM358DRG4-TR`, 2500, 'Tape & Reel', 2500, 2500, [[2500, 0.14]])])
})

export const NEXAR_FAKE_PARTS: readonly Json[] = [
  part({
    id: '39619421',
    mpn: 'LM358DR',
    manufacturer: TI,
    description: 'Dual Operational Amplifier, 0.7 MHz, 3-32 V, SOIC-8',
    specs: opampSpecs(lifecycle('Production', '2 years ago'), 'SOIC', 'Compliant'),
    datasheet: TI_DATASHEET,
    image: 'https://sigma.octopart.com/23011346/image/Texas-Instruments-LM358DR.jpg',
    sellers: [
      seller(DIGIKEY, [
        offer('1001', '296-1014-1-ND', 15230, 'Cut Tape', 1, null, [
          [1, 0.5],
          [10, 0.338],
          [100, 0.2109],
        ]),
        offer('1002', '296-1014-2-ND', 45000, 'Tape & Reel', 2500, 2500, [
          [2500, 0.12544],
          [5000, 0.11638],
        ]),
      ]),
      // Mouser prices this offer in dollars and euros: the currency asked decides which breaks are taken.
      seller(MOUSER, [
        offer('2001', '595-LM358DR', 9876, 'Cut Tape', 1, 1, [
          [1, 0.48],
          [10, 0.335],
          [100, 0.209],
          [1, 0.45, 'EUR'],
          [10, 0.31, 'EUR'],
        ]),
      ]),
      // A broker: not among `sellers` unless includeBrokers is asked.
      seller(BROKER, [offer('9001', 'QC-LM358DR', 300, null, 1, null, [[1, 1.2]])], { broker: true }),
    ],
  }),
  part({
    id: '42315325',
    mpn: 'LM358N',
    manufacturer: TI,
    description: 'Dual Operational Amplifier, 0.7 MHz, PDIP-8',
    specs: opampSpecs(lifecycle('NRND', '5 months ago'), 'DIP', 'Compliant'),
    datasheet: TI_DATASHEET,
    image: null,
    sellers: [
      seller(DIGIKEY, [offer('1101', '296-1395-5-ND', 0, 'Tube', 1, null, [[1, 0.62]])]),
      // -2: "Yes – in stock, but no quantity is provided".
      seller(ARROW, [offer('3101', 'LM358N', -2, 'Tube', 50, 50, [[50, 0.41]])]),
    ],
  }),
  part({
    id: '17738942',
    mpn: 'LM358AN',
    manufacturer: NATIONAL,
    description: 'Op Amp Dual Low Power Amplifier ±16V/32V 8-Pin PDIP',
    specs: [lifecycle('Obsolete', '8 years ago'), spec(CASE, 'DIP'), spec(ROHS, 'Non-Compliant')],
    datasheet: null,
    image: null,
    sellers: [seller(ROCHESTER, [offer('4101', 'LM358AN-RE', 1200, 'Tube', 100, null, [[100, 1.05]])])],
  }),
  part({
    id: '1109927384',
    mpn: 'LM358BIDR',
    manufacturer: TI,
    description: 'Dual, 36-V, 1.2-MHz operational amplifier, SOIC-8',
    specs: opampSpecs(lifecycle('New', '3 weeks ago'), 'SOIC', 'Compliant'),
    datasheet: TI_DATASHEET,
    image: null,
    sellers: [seller(DIGIKEY, [offer('1201', '296-LM358BIDRCT-ND', 3000, 'Cut Tape', 1, null, [[1, 0.55]])])],
  }),
  part({
    id: '55512',
    mpn: 'LM358DT',
    manufacturer: ST,
    description: 'Low-power dual operational amplifier, SO-8',
    specs: opampSpecs(lifecycle('Production', '1 year ago'), 'SOIC', 'Compliant'),
    datasheet: 'https://www.st.com/resource/en/datasheet/lm358.pdf',
    image: null,
    // Farnell prices only in pounds.
    sellers: [
      seller(FARNELL, [
        offer('5101', '1467791', 4210, 'Cut Tape', 5, 5, [
          [5, 0.312, 'GBP'],
          [100, 0.198, 'GBP'],
        ]),
      ]),
    ],
  }),
  part({
    id: '66204417',
    mpn: 'LM358DRG4',
    manufacturer: TI,
    description: 'Dual Operational Amplifier, 0.7 MHz, SOIC-8, green',
    specs: opampSpecs(lifecycle('EOL', '1 month ago'), 'SOIC', 'Compliant'),
    datasheet: TI_DATASHEET,
    image: null,
    sellers: MANY_SELLERS,
  }),
]

// ---------------------------------------------------------------------------

export async function startNexarFake(): Promise<NexarFake> {
  const tokens = new Set<string>()
  const dropped = new Set<string>()
  let partLimitSpent = false
  let refusing = false
  let unknownIds: 'null' | 'omitted' = 'null'
  let returned = 0

  const fake = await startFake((req, res) => {
    if (req.method === 'POST' && req.path === NEXAR_TOKEN_PATH) return token(req, res)
    if (req.method === 'POST' && req.path === NEXAR_GRAPHQL_PATH) return graphql(req, res)
    sendJson(res, 404, { message: 'not found' })
  })

  function token(req: SeenRequest, res: ServerResponse): void {
    if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return sendJson(res, 400, { error: 'invalid_request' })
    const form = new URLSearchParams(req.body)
    if (form.get('grant_type') !== 'client_credentials') return sendJson(res, 400, { error: 'unsupported_grant_type' })
    if (form.get('client_id') !== NEXAR_FAKE_CLIENT_ID || form.get('client_secret') !== NEXAR_FAKE_SECRET) return sendJson(res, 400, { error: 'invalid_client' })
    const scope = form.get('scope') ?? 'supply.domain'
    if (scope !== 'supply.domain') return sendJson(res, 400, { error: 'invalid_scope' })
    const accessToken = `fake-nexar-access-token-${randomUUID()}`
    tokens.add(accessToken)
    sendJson(res, 200, { access_token: accessToken, expires_in: 86400, token_type: 'Bearer', scope })
  }

  function graphql(req: SeenRequest, res: ServerResponse): void {
    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1]
    if (!bearer || !tokens.has(bearer) || refusing) {
      return sendJson(res, 401, {
        errors: [{ message: 'Token validation failed. Please provide a valid access token.', locations: [], path: [], extensions: { code: 'AuthInvalidToken', remote: null, schemaName: 'Supply' } }],
        extensions: { requestId: randomUUID() },
      })
    }
    const graphqlResponse = String(req.headers.accept ?? '').includes('application/graphql-response+json')
    const requestError = (errors: Json[]): void => {
      if (graphqlResponse) res.writeHead(400, { 'content-type': 'application/graphql-response+json' }).end(JSON.stringify({ errors }))
      else sendJson(res, 200, { errors })
    }
    let body: { query?: unknown; variables?: unknown; operationName?: unknown }
    try {
      body = JSON.parse(req.body) as typeof body
    } catch {
      return requestError([{ message: 'Invalid JSON in the request body.' }])
    }
    if (typeof body.query !== 'string') return requestError([{ message: 'The GraphQL request has no query.' }])
    let document: DocumentNode
    try {
      document = parse(body.query)
    } catch (error) {
      return requestError([{ message: (error as GraphQLError).message, extensions: { code: 'HC0011' } }])
    }
    const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (!body.operationName || d.name?.value === body.operationName))
    if (!operation || operation.operation !== 'query') return requestError([{ message: 'The fake answers one query operation.' }])
    const problems = validate(operation.selectionSet, 'Query', dropped)
    if (problems.length) return requestError(problems)
    if (partLimitSpent) {
      const message = 'You have exceeded your part limit of 1000. Please upgrade your plan. Contact us at api@nexar.com for assistance.'
      return sendJson(res, 500, { errors: [{ message, extensions: { remote: { message }, schemaName: 'Supply' } }] })
    }
    const variables = (typeof body.variables === 'object' && body.variables !== null ? body.variables : {}) as Json
    const data: Json = {}
    for (const selection of operation.selectionSet.selections) {
      const field = selection as FieldNode
      const args = argumentsOf(field, variables)
      const value = resolveRoot(field.name.value, args)
      data[field.alias?.value ?? field.name.value] = project(value, field.selectionSet, SCHEMA.Query![field.name.value]!)
    }
    sendJson(res, 200, { data, extensions: { requestId: randomUUID() } })
  }

  /** A root field's value, before its selection: the parts it matches, each counted. */
  function resolveRoot(name: string, args: Json): unknown {
    // `country` changes nothing here: the fake's sellers stock the same everywhere.
    const currency = typeof args.currency === 'string' ? args.currency : 'USD'
    if (name === 'supParts') {
      const ids = Array.isArray(args.ids) ? args.ids.map(String) : []
      const found = ids.map((id) => NEXAR_FAKE_PARTS.find((p) => p.id === id) ?? null)
      const answer = unknownIds === 'null' ? found : found.filter((p) => p !== null)
      returned += answer.filter((p) => p !== null).length
      return answer.map((p) => (p ? localised(p, currency) : null))
    }
    const q = typeof args.q === 'string' ? args.q : ''
    // "capped at 100"; by default 10.
    const limit = Math.min(100, Math.max(1, typeof args.limit === 'number' ? args.limit : 10))
    const start = typeof args.start === 'number' ? args.start : 0
    const matches = name === 'supSearchMpn' ? byMpn(q) : byKeywords(q)
    const page = matches.slice(start, start + limit)
    returned += page.length
    return { hits: matches.length, total: matches.length, warnings: null, results: page.map((p) => ({ part: localised(p, currency), description: p.shortDescription, akaMpn: null })) }
  }

  return Object.assign(fake, {
    tokenUrl: `${fake.url}${NEXAR_TOKEN_PATH}`,
    apiUrl: `${fake.url}${NEXAR_GRAPHQL_PATH}`,
    partsReturned: () => returned,
    revokeTokens: () => tokens.clear(),
    refuseTokens: (refuse: boolean) => {
      refusing = refuse
    },
    exhaustPartLimit: (spent: boolean) => {
      partLimitSpent = spent
    },
    dropField: (type: string, field: string) => {
      dropped.add(`${type}.${field}`)
    },
    restoreFields: () => dropped.clear(),
    answerUnknownIds: (how: 'null' | 'omitted') => {
      unknownIds = how
    },
  })
}

// ---------------------------------------------------------------------------
// Answering a selection

/** Every field asked for that its type does not have, as Hot Chocolate words the error. */
function validate(selectionSet: SelectionSetNode | undefined, type: string, dropped: ReadonlySet<string>): Json[] {
  const fields = SCHEMA[type] ?? {}
  const errors: Json[] = []
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind !== Kind.FIELD) {
      errors.push({ message: 'The fake answers fields only, not fragments.' })
      continue
    }
    const name = selection.name.value
    if (name === '__typename') continue
    if (!(name in fields) || dropped.has(`${type}.${name}`)) {
      const at = selection.loc?.startToken
      errors.push({
        message: `The field \`${name}\` does not exist on the type \`${type}\`.`,
        locations: at ? [{ line: at.line, column: at.column }] : [],
        extensions: { type, field: name, responseName: selection.alias?.value ?? name, specifiedBy: 'https://spec.graphql.org/October2021/#sec-Field-Selections' },
      })
      continue
    }
    const child = fields[name]
    if (child) errors.push(...validate(selection.selectionSet, child, dropped))
  }
  return errors
}

/** `value` cut to what the selection asks, under each field's response name. */
function project(value: unknown, selectionSet: SelectionSetNode | undefined, type: string): unknown {
  if (value === null || value === undefined || !selectionSet) return value ?? null
  if (Array.isArray(value)) return value.map((v) => project(v, selectionSet, type))
  const source = value as Json
  const out: Json = {}
  for (const selection of selectionSet.selections) {
    const field = selection as FieldNode
    const name = field.name.value
    const key = field.alias?.value ?? name
    if (name === '__typename') {
      out[key] = type
      continue
    }
    let child = source[name]
    // sellers(includeBrokers: Boolean! = false): brokers only when asked.
    if (type === 'SupPart' && name === 'sellers' && Array.isArray(child)) {
      const includeBrokers = argumentsOf(field, {}).includeBrokers === true
      child = child.filter((s) => includeBrokers || !(s as Json).isBroker)
    }
    out[key] = project(child, field.selectionSet, SCHEMA[type]?.[name] ?? type)
  }
  return out
}

function argumentsOf(field: FieldNode, variables: Json): Json {
  const out: Json = {}
  for (const arg of field.arguments ?? []) out[arg.name.value] = valueOf(arg.value, variables)
  return out
}

function valueOf(node: ValueNode, variables: Json): unknown {
  switch (node.kind) {
    case Kind.VARIABLE:
      return variables[node.name.value]
    case Kind.INT:
      return Number.parseInt(node.value, 10)
    case Kind.FLOAT:
      return Number.parseFloat(node.value)
    case Kind.STRING:
    case Kind.ENUM:
      return node.value
    case Kind.BOOLEAN:
      return node.value
    case Kind.NULL:
      return null
    case Kind.LIST:
      return node.values.map((v) => valueOf(v, variables))
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, valueOf(f.value, variables)]))
  }
}

/** A part with each price point's `convertedPrice` in the currency asked (Nexar's estimate). */
function localised(p: Json, currency: string): Json {
  const rate = RATES[currency] ?? 1
  const sellers = (p.sellers as Json[]).map((s) => ({
    ...s,
    offers: (s.offers as Json[]).map((o) => ({
      ...o,
      prices: (o.prices as Json[]).map((pp) => {
        const price = pp.price as number
        const fromUsd = 1 / (RATES[pp.currency as string] ?? 1)
        return { ...pp, convertedPrice: Math.round(price * fromUsd * rate * 1e5) / 1e5, convertedCurrency: currency, conversionRate: fromUsd * rate }
      }),
    })),
  }))
  return { ...p, sellers }
}

function fold(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, '')
}

/** supSearchMpn: MPNs containing the query (partial matches, as the playground examples note), exact first. */
function byMpn(q: string): Json[] {
  const wanted = fold(q)
  if (!wanted) return []
  const found = NEXAR_FAKE_PARTS.filter((p) => fold(String(p.mpn)).includes(wanted))
  return [...found.filter((p) => fold(String(p.mpn)) === wanted), ...found.filter((p) => fold(String(p.mpn)) !== wanted)]
}

/** supSearch: every word of the query in the part's MPN, manufacturer or description. */
function byKeywords(q: string): Json[] {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean)
  if (!words.length) return []
  return NEXAR_FAKE_PARTS.filter((p) => {
    const text = `${p.mpn} ${(p.manufacturer as Json).name} ${p.shortDescription}`.toLowerCase()
    return words.every((w) => text.includes(w))
  })
}
