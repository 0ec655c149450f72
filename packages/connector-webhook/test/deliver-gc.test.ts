import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const script = fileURLToPath(new URL('./fixtures/deliver-under-gc.ts', import.meta.url))

it('the answer timeout fires while the garbage collector runs (a collected AbortSignal.timeout left a request waiting forever under load)', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', script], { timeout: 20_000 })
  expect(JSON.parse(stdout)).toMatchObject({ ok: false, status: 0, error: 'no answer within 300 ms' })
}, 30_000)
