import { defineConnector } from '@complib/core'
import { executeRun } from '@complib/connector-webhook'
import { startReceiver } from '@complib/test-support/receiver'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { useTestApi } from './harness'

const api = useTestApi()

/** CR, LF, NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR: each ends a line for some reader. */
const BREAKS = /[\r\n\u0085\u2028\u2029]/
const FORGED = 'sent\n[batch 9] forged\r\nx\u2028y\u2029z\u0085w'
const ESCAPED = 'sent\\n[batch 9] forged\\r\\nx\\u2028y\\u2029z\\u0085w'

/** Every text of a run a connector could have written: log lines, the run's and its batches' errors. */
function runTexts(run: { logs: string[]; error: string | null; batches: Array<{ error: string | null }> }): string[] {
  return [...run.logs, run.error ?? '', ...run.batches.map((b) => b.error ?? '')]
}

describe("a connector's text cannot forge log lines (decision 1014)", () => {
  it('webhook code: its log lines and its error are stored with their line breaks escaped, in a run and in a dry run', async () => {
    const receiver = await startReceiver()
    try {
      await api.ok('POST', '/api/components', { name: 'A' }, 201)
      const code = `async function push(entities, config, helpers) { helpers.log(${JSON.stringify(FORGED)}); throw new Error("failed\\n[batch 1] forged too") }`
      const c = await api.ok('POST', '/api/connectors', { name: 'Hook', config: { url: receiver.url }, code }, 201)
      const started = await api.call('POST', `/api/connectors/${c.id}/push`)
      expect(started.status, started.text).toBe(202)
      await api.runner.settled(c.id)
      const run = await api.ok('GET', `/api/connector-runs/${started.body.id}`)
      expect(run.logs).toEqual([`[batch 0] ${ESCAPED}`])
      expect(run.batches[0].error).toContain('failed\\n[batch 1] forged too')
      expect(runTexts(run).filter((t) => BREAKS.test(t))).toEqual([])

      const dry = await api.ok('POST', `/api/connectors/${c.id}/test`)
      expect(dry.logs).toEqual([ESCAPED])
    } finally {
      await receiver.close()
    }
  })

  it("a connector package's log lines and its setup error are escaped too", async () => {
    const lines = defineConnector({
      type: 'lines',
      configSchema: z.object({ fail: z.boolean().optional() }),
      setup: ({ config }) => {
        if (config.fail) throw new Error('no session\n[connector:webhook] forged')
      },
      run: async (_batch, context) => {
        context.log(FORGED)
      },
    })
    const component = await api.ok('POST', '/api/components', { name: 'A' }, 201)
    for (const fail of [false, true]) {
      const connector = await api.storage.connectors.create({ name: `lines ${fail}`, type: 'lines', enabled: true, config: { fail }, secret: null, code: null })
      const created = await api.storage.runs.create({ connectorId: connector.id, trigger: 'manual', batches: [{ webhookId: `msg_${fail}`, ids: [component.id] }] })
      await executeRun(created.id, lines, { storage: api.storage, signal: new AbortController().signal })
      const run = await api.ok('GET', `/api/connector-runs/${created.id}`)
      if (fail) expect(run.error).toBe('[connector:lines] no session\\n[connector:webhook] forged')
      else expect(run.logs).toEqual([`[batch 0] ${ESCAPED}`])
      expect(runTexts(run).filter((t) => BREAKS.test(t))).toEqual([])
    }
  })
})
