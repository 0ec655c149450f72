import { createSourceHttp } from '@complib/core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { NEXAR_FAKE_CLIENT_ID, NEXAR_FAKE_SECRET, startNexarFake, type NexarFake } from './fakes/nexar'

// graphql-request, with the graphql package it brings, took about 80 ms of
// every server's start (a CPU profile of `complib serve`): the Nexar source
// loads it with its first request, and importing the sources does not.
const state = vi.hoisted(() => ({ loaded: false }))
vi.mock('graphql-request', async (original) => {
  state.loaded = true
  return await original()
})

let fake: NexarFake
beforeAll(async () => {
  fake = await startNexarFake()
})
afterAll(async () => await fake.close())

describe('loading graphql-request', () => {
  it('waits for the first Nexar request', async () => {
    // Files may share a worker's modules: these are imported afresh, under the mock.
    vi.resetModules()
    const { BUILT_IN_SOURCE_TYPES } = await import('../src/index')
    const { nexarSource } = await import('../src/nexar')
    expect(BUILT_IN_SOURCE_TYPES.length).toBeGreaterThan(0)
    expect(state.loaded).toBe(false)
    const raw = { clientId: NEXAR_FAKE_CLIENT_ID, clientSecret: NEXAR_FAKE_SECRET, apiUrl: fake.apiUrl, tokenUrl: fake.tokenUrl }
    const context = { config: nexarSource.configSchema.parse(raw), http: createSourceHttp({ secrets: [NEXAR_FAKE_SECRET], timeoutMs: 2_000 }), signal: new AbortController().signal, memo: new Map(), now: () => new Date() }
    const hits = await nexarSource.search('LM358', context, 5)
    expect(hits.length).toBeGreaterThan(0)
    expect(state.loaded).toBe(true)
  })
})
