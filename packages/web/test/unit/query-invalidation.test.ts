import type { Component, Connector } from '@complib/client-sdk'
import { QueryClient, type QueryKey } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { accountQueries, tokensChanged, usersChanged } from '../../src/queries/accounts'
import { attachmentQueries, attachmentsChanged } from '../../src/queries/attachments'
import { auditQueries, EMPTY_AUDIT_FILTERS } from '../../src/queries/audit'
import { authQueries, meChanged } from '../../src/queries/auth'
import { componentQueries, componentSaved, invalidateComponent, invalidateComponentLists, invalidateComponents } from '../../src/queries/components'
import { connectorCodeChanged, connectorQueries, connectorSaved, invalidateRuns, setConnector } from '../../src/queries/connectors'
import { importQueries } from '../../src/queries/imports'
import { EMPTY_FILTERS, libraryQuery } from '../../src/queries/library'
import { linkQueries } from '../../src/queries/links'
import { invalidateLocations, locationQueries, stockChanged, stockQueries } from '../../src/queries/locations'
import { serverQueries } from '../../src/queries/server'
import { settingsQueries, settingsSaved } from '../../src/queries/settings'
import { kicadQueries } from '../../src/queries/kicad'
import { enriched, offerQueries } from '../../src/queries/offers'
import { sourceQueries, sourcesChanged } from '../../src/queries/sources'
import { parameterTypesChanged, templateQueries, templatesChanged } from '../../src/queries/templates'

/**
 * Every query the screens read, under the keys their factories give, for two
 * of each thing (so a helper refreshing "everything" where it meant "this one"
 * shows too). Seeded, not fetched: nothing observes them, so invalidating
 * one only marks it, and the test reads the marks.
 */
const QUERIES: Record<string, QueryKey> = {
  'component A': componentQueries.detail('cmp_a').queryKey,
  'component B': componentQueries.detail('cmp_b').queryKey,
  'history of A': componentQueries.history('cmp_a', 2).queryKey,
  'history of B': componentQueries.history('cmp_b', 5).queryKey,
  library: libraryQuery(EMPTY_FILTERS, { key: 'name', desc: false }, { current: 0 }).queryKey,
  'filtered library': libraryQuery({ ...EMPTY_FILTERS, tag: 'smd', ranges: [{ type: 'Resistance', min: '10k', max: '' }] }, { key: 'ipn', desc: true }, { current: 0 }).queryKey,
  suggestions: componentQueries.suggest('rc06').queryKey,
  'bulk selection': componentQueries.selection(['cmp_a', 'cmp_b']).queryKey,
  'files of A': attachmentQueries.forComponent('cmp_a').queryKey,
  'files of B': attachmentQueries.forComponent('cmp_b').queryKey,
  'stock of A': stockQueries.forComponent('cmp_a').queryKey,
  'stock of B': stockQueries.forComponent('cmp_b').queryKey,
  'location tree': locationQueries.tree().queryKey,
  'location choices': locationQueries.options().queryKey,
  'stock at a location': locationQueries.stockAt('loc_1').queryKey,
  'symbols to link': linkQueries.pick('symbols', 'op').queryKey,
  'footprints to link': linkQueries.pick('footprints', '').queryKey,
  'import rows': importQueries.rows({ id: 'imp_1', version: 1 }, 500).queryKey,
  health: serverQueries.health().queryKey,
  'KiCad categories': serverQueries.kicadCategories().queryKey,
  connectors: connectorQueries.list().queryKey,
  'connector X': connectorQueries.detail('con_x').queryKey,
  'connector Y': connectorQueries.detail('con_y').queryKey,
  'code of X': connectorQueries.code('con_x').queryKey,
  'code of Y': connectorQueries.code('con_y').queryKey,
  'runs of X': connectorQueries.runs('con_x').queryKey,
  'runs of Y': connectorQueries.runs('con_y').queryKey,
  'a run of X': connectorQueries.run('run_1', 'running', true).queryKey,
  'who is calling': authQueries.me().queryKey,
  users: accountQueries.users().queryKey,
  'my tokens': accountQueries.tokens(false).queryKey,
  'everyone’s tokens': accountQueries.tokens(true).queryKey,
  'audit trail': auditQueries.page(EMPTY_AUDIT_FILTERS, undefined).queryKey,
  'audit trail, older page': auditQueries.page(EMPTY_AUDIT_FILTERS, 'cursor_2').queryKey,
  'audit trail, filtered': auditQueries.page({ ...EMPTY_AUDIT_FILTERS, action: 'auth.' }, undefined).queryKey,
  settings: settingsQueries.settings().queryKey,
  'parts without a symbol': kicadQueries.withoutSymbol().queryKey,
  'parameter types': templateQueries.parameterTypes().queryKey,
  categories: templateQueries.categories().queryKey,
  'templates of P': templateQueries.forCategory('cat_p').queryKey,
  'templates of R': templateQueries.forCategory('cat_r').queryKey,
  'parameter report': templateQueries.report().queryKey,
  'source types': sourceQueries.types().queryKey,
  sources: sourceQueries.list().queryKey,
  'a search of source S': sourceQueries.search('src_s', 'lm358').queryKey,
  'a search of source T': sourceQueries.search('src_t', 'lm358').queryKey,
  'a part at source S': sourceQueries.part('src_s', '595-LM358DR').queryKey,
  'offers of A': offerQueries.offers('cmp_a').queryKey,
  'offers of B': offerQueries.offers('cmp_b').queryKey,
  'provenance of A': offerQueries.provenance('cmp_a').queryKey,
  'provenance of B': offerQueries.provenance('cmp_b').queryKey,
}

const componentA = { id: 'cmp_a', version: 3, name: 'saved' } as Component
const connectorX = { id: 'con_x', version: 2, name: 'saved' } as Connector

/** What each mutation's helper must refresh: exactly these, nothing else. */
const CASES: Array<[string, (qc: QueryClient) => Promise<unknown> | void, string[]]> = [
  ['a component saved, deleted or restored', (qc) => componentSaved(qc, componentA), ['library', 'filtered library', 'suggestions', 'bulk selection', 'parts without a symbol', 'history of A']],
  ['a component duplicated', (qc) => invalidateComponentLists(qc), ['library', 'filtered library', 'suggestions', 'bulk selection', 'parts without a symbol']],
  ['a component changed beside its form', (qc) => invalidateComponent(qc, 'cmp_a'), ['component A']],
  [
    'many components changed (bulk edit, import)',
    (qc) => invalidateComponents(qc),
    ['component A', 'component B', 'history of A', 'history of B', 'library', 'filtered library', 'suggestions', 'bulk selection', 'parts without a symbol'],
  ],
  ['a file added to or removed from a component', (qc) => attachmentsChanged(qc, 'cmp_a'), ['files of A', 'component A']],
  ['stock set', (qc) => stockChanged(qc, 'cmp_a'), ['stock of A', 'location tree', 'location choices', 'stock at a location']],
  ['a location added or removed', (qc) => invalidateLocations(qc), ['location tree', 'location choices', 'stock at a location']],
  ['connector settings saved', (qc) => connectorSaved(qc, connectorX), ['connectors']],
  ['a connector secret rotated', (qc) => setConnector(qc, connectorX), []],
  ['connector code saved', (qc) => connectorCodeChanged(qc, 'con_x'), ['connector X', 'code of X']],
  ['a run started, ended, cancelled or resumed', (qc) => invalidateRuns(qc, 'con_x'), ['runs of X']],
  ['signed in or out, or one’s own account changed', (qc) => meChanged(qc), ['who is calling']],
  ['an account created or changed (a disabled one’s tokens stop too)', (qc) => usersChanged(qc), ['users', 'my tokens', 'everyone’s tokens']],
  ['a token created or revoked', (qc) => tokensChanged(qc), ['my tokens', 'everyone’s tokens']],
  ['a parameter type created or changed', (qc) => parameterTypesChanged(qc), ['parameter types', 'templates of P', 'templates of R', 'parameter report']],
  ['a category’s templates replaced (its descendants inherit them)', (qc) => templatesChanged(qc), ['templates of P', 'templates of R', 'parameter report']],
  // A new key or host answers differently: what was searched and read is read again; the types are the server's.
  ['a source created, changed or deleted', (qc) => sourcesChanged(qc), ['sources', 'a search of source S', 'a search of source T', 'a part at source S']],
  [
    'fields applied to a component from a source',
    (qc) => enriched(qc, componentA),
    ['library', 'filtered library', 'suggestions', 'bulk selection', 'parts without a symbol', 'history of A', 'offers of A', 'provenance of A', 'files of A'],
  ],
  ['settings saved', (qc) => settingsSaved(qc, { auditRetentionDays: 30, outbound: { blockMetadata: true, allowedHosts: [] }, kicad: KICAD_DEFAULTS, updatedAt: null }), []],
]

const KICAD_DEFAULTS = {
  cacheMaxAge: 60,
  hideObsolete: false,
  categoryDepth: null,
  fields: { ipn: { include: true, name: 'IPN', visible: false }, manufacturer: { include: true, name: 'Manufacturer', visible: false }, mpn: { include: true, name: 'MPN', visible: false } },
  parameters: { others: 'hidden' as const, rules: [] },
}

describe('the query factories and what the mutations invalidate', () => {
  it('give every query its own key (no two read into one cache entry)', () => {
    const qc = _seeded()
    expect(qc.getQueryCache().getAll()).toHaveLength(Object.keys(QUERIES).length)
  })

  it.each(CASES)('%s: refreshes exactly the queries that show it', async (_name, mutate, expected) => {
    const qc = _seeded()
    await mutate(qc)
    const invalidated = Object.entries(QUERIES)
      .filter(([, key]) => qc.getQueryState(key)?.isInvalidated)
      .map(([name]) => name)
    expect(invalidated.sort()).toEqual([...expected].sort())
  })

  it('a save puts the answer where the component screen reads it', async () => {
    const qc = _seeded()
    await componentSaved(qc, componentA)
    expect(qc.getQueryData(componentQueries.detail('cmp_a').queryKey)).toEqual(componentA)
    expect(qc.getQueryData(componentQueries.detail('cmp_b').queryKey)).toEqual({ seeded: 'component B' })
  })

  it('an enrichment puts the component as answered where the component screen reads it', async () => {
    const qc = _seeded()
    await enriched(qc, componentA)
    expect(qc.getQueryData(componentQueries.detail('cmp_a').queryKey)).toEqual(componentA)
  })

  it('a connector save or rotation puts the answer where the connector screen reads it', async () => {
    for (const write of [(qc: QueryClient) => connectorSaved(qc, connectorX), (qc: QueryClient) => setConnector(qc, connectorX)]) {
      const qc = _seeded()
      await write(qc)
      expect(qc.getQueryData(connectorQueries.detail('con_x').queryKey)).toEqual(connectorX)
      expect(qc.getQueryData(connectorQueries.detail('con_y').queryKey)).toEqual({ seeded: 'connector Y' })
    }
  })
})

function _seeded(): QueryClient {
  const qc = new QueryClient()
  for (const [name, key] of Object.entries(QUERIES)) qc.setQueryData(key, { seeded: name })
  return qc
}
