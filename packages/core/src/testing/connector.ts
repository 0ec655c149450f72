import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { createConnectorBatch, isConnectorDefinition, type ConnectorBatch, type ConnectorContext, type ConnectorDefinition } from '../connectors'
import { createId } from '../ids'
import { Component } from '../schemas/component'

export interface ConnectorSuiteOptions {
  /** A valid configuration (before defaults) pointing at the test's own target (a local receiver, a temporary folder…). */
  config: () => Record<string, unknown> | Promise<Record<string, unknown>>
  /** A configuration the type must refuse. */
  invalidConfig: unknown
  /** The ids of the components the target holds now, one entry per copy it holds. */
  received: () => string[] | Promise<string[]>
}

/**
 * The shared suite every connector type passes (the built-in webhook one and
 * third-party packages alike): its definition is well formed, its config
 * schema validates and describes itself, a batch arrives whole, a batch
 * delivered again (a resume after a crash does that) leaves one copy, and a
 * cancelled run stops.
 *
 * @example
 * testConnector(myConnector, { config: () => ({ dir }), invalidConfig: {}, received: () => readIds(dir) })
 */
export function testConnector<Config extends Record<string, unknown>, Session>(definition: ConnectorDefinition<Config, Session>, options: ConnectorSuiteOptions): void {
  const context = async (signal = new AbortController().signal): Promise<ConnectorContext<Config>> => ({
    config: definition.configSchema.parse(await options.config()),
    code: null,
    secrets: [TEST_CONNECTOR_SECRET],
    signal,
    log: () => {},
  })
  const batch = (entities: readonly Component[]): ConnectorBatch =>
    createConnectorBatch({ index: 0, deliveryId: createId('message'), runId: createId('run'), batches: 1, bytes: Buffer.from(JSON.stringify(entities), 'utf8'), count: entities.length })
  // A batch goes through what the runtime calls for a run: setup, run, dispose.
  const deliver = async (b: ConnectorBatch, signal?: AbortSignal) => {
    const ctx = await context(signal)
    const session = (await definition.setup?.(ctx)) as Session
    try {
      return await definition.run(b, { ...ctx, session, keep: async () => {}, attempt: () => {} })
    } finally {
      await definition.dispose?.(session)
    }
  }

  describe(`connector type "${definition.type}"`, () => {
    it('is a connector definition with a kebab-case type', () => {
      expect(isConnectorDefinition(definition)).toBe(true)
      expect(definition.type).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/)
    })

    it('accepts its valid config and refuses the invalid one', async () => {
      expect(definition.configSchema.safeParse(await options.config()).success).toBe(true)
      expect(definition.configSchema.safeParse(options.invalidConfig).success).toBe(false)
    })

    it('describes its config as JSON Schema (GET /api/connectors/types)', () => {
      const schema = z.toJSONSchema(definition.configSchema, { io: 'input', unrepresentable: 'any' })
      expect(schema).toBeTypeOf('object')
    })

    it('delivers a batch whole: every entity arrives', async () => {
      const entities = sampleComponents(5)
      await deliver(batch(entities))
      const received = await options.received()
      for (const c of entities) expect(received).toContain(c.id)
    })

    it('leaves one copy when the same batch is delivered again (resume after a crash)', async () => {
      const entities = sampleComponents(3)
      const again = batch(entities)
      await deliver(again)
      await deliver(again)
      const received = await options.received()
      for (const c of entities) expect(received.filter((id) => id === c.id)).toHaveLength(1)
    })

    it('settles promptly when the run is cancelled', async () => {
      const controller = new AbortController()
      controller.abort()
      const settled = deliver(batch(sampleComponents(2)), controller.signal).then(
        () => 'resolved',
        () => 'rejected',
      )
      const timeout = new Promise((resolve) => setTimeout(() => resolve('still running'), 5000).unref())
      expect(await Promise.race([settled, timeout])).not.toBe('still running')
    })
  })
}

/** The signing secret the suite's context carries (`context.secrets[0]`), for receivers that verify. */
export const TEST_CONNECTOR_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

/** Valid components, as the runtime hands them to `run`. */
export function sampleComponents(count: number): Component[] {
  const at = new Date().toISOString()
  return Array.from({ length: count }, (_, i) =>
    Component.parse({
      id: createId('component'),
      name: `R ${i + 1}k 0603`,
      ipn: `RES-T${String(i).padStart(4, '0')}`,
      description: `Resistor ${i + 1} kΩ`,
      status: 'active',
      category: 'Resistors',
      tags: ['smd'],
      parameters: [{ type: 'Resistance', value: `${i + 1}k`, unit: 'Ω' }],
      mpns: [{ manufacturer: 'Yageo', partNumber: `RC0603FR-07${i + 1}KL` }],
      symbols: [],
      footprints: [],
      attachments: [],
      kicadValue: null,
      excludeFromBom: false,
      excludeFromBoard: false,
      excludeFromSim: false,
      createdAt: at,
      updatedAt: at,
      version: 1,
      deletedAt: null,
    }),
  )
}
