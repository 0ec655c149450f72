// A third-party complib connector: writes each pushed component to <folder>/<id>.json.
// Load it with `complib serve --connector ./examples/custom-connector` (or a package name).
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import { defineConnector } from '@complib/core'
import * as z from 'zod'

export default defineConnector({
  type: 'json-folder',
  title: 'Components → JSON folder',
  description: 'Writes every pushed component to <folder>/<id>.json; a batch delivered again overwrites the same files.',
  configSchema: z.strictObject({
    folder: z.string().refine(isAbsolute, 'an absolute path').describe('Folder the files are written to'),
    concurrency: z.int().min(1).max(16).default(2).describe('Batches written at once'),
  }),
  async run(batch, { config, signal, log }) {
    await mkdir(config.folder, { recursive: true })
    for (const component of batch.entities) {
      signal.throwIfAborted()
      const file = join(config.folder, `${component.id}.json`)
      // A temporary file renamed into place: a reader never sees half a component.
      await writeFile(`${file}.tmp`, `${JSON.stringify(component, null, 2)}\n`)
      await rename(`${file}.tmp`, file)
    }
    log(`wrote ${batch.entities.length} components (delivery ${batch.deliveryId})`)
  },
})
