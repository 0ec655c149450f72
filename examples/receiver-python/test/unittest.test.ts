import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const HERE = fileURLToPath(new URL('..', import.meta.url))

// The Python unit tests (test_receiver.py): known-answer vectors, tolerance,
// rotation, the store, the handler. Run here so CI runs them.
it('passes the Python unit tests of receiver.py, known-answer vectors included', () => {
  const result = spawnSync('python3', ['-m', 'unittest', '-v'], {
    cwd: HERE,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  })
  const report = `${result.stdout}${result.stderr}`
  expect(result.status, report).toBe(0)
  // A discovery that found nothing also exits 0: count what ran.
  expect(Number(/Ran (\d+) tests?/.exec(report)?.[1]), report).toBeGreaterThanOrEqual(17)
  expect(report).toMatch(/test_each_vector_verifies_at_its_time_and_a_changed_byte_does_not \S+ \.\.\. ok/)
})
