import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const HERE = fileURLToPath(new URL('..', import.meta.url))

// The Python unit tests (test_bulk_edit.py): Link parsing, templates, and a
// fake server's 412. Run here so CI runs them.
it('passes the Python unit tests of bulk_edit.py', () => {
  const result = spawnSync('python3', ['-m', 'unittest', '-v'], {
    cwd: HERE,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  })
  const report = `${result.stdout}${result.stderr}`
  expect(result.status, report).toBe(0)
  // A discovery that found nothing also exits 0: count what ran.
  expect(Number(/Ran (\d+) tests?/.exec(report)?.[1]), report).toBeGreaterThanOrEqual(7)
})
