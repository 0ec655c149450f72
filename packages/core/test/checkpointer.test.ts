import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const churn = fileURLToPath(new URL('./fixtures/checkpointer-churn.ts', import.meta.url))

describe('the WAL checkpointer', () => {
  // On Node 24 (better-sqlite3 13), terminating the checkpointer's thread while it
  // loads the addon or opens the file aborts the process (FATAL ERROR: Error::New
  // napi_get_last_error_info; decision 0003). The churn runs in a child process, so
  // such an abort fails this test instead of the runner. A close that terminated the
  // thread fails it on every run on Node 24; on Node 20 (better-sqlite3 12) it passes
  // either way.
  it('closes while its thread is still starting without bringing the process down', { timeout: 90_000 }, async () => {
    const { code, signal, output } = await new Promise<{ code: number | null; signal: string | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', churn, '300'], { stdio: ['ignore', 'pipe', 'pipe'] })
      let output = ''
      child.stdout.on('data', (d: Buffer) => (output += d))
      child.stderr.on('data', (d: Buffer) => (output += d))
      child.on('exit', (code, signal) => resolve({ code, signal, output }))
    })
    expect({ code, signal, output: output.trim().split('\n').slice(0, 3).join('\n') }).toEqual({ code: 0, signal: null, output: 'closed 300' })
  })
})
