import { runPythonUnittests } from '@complib/example-test-support'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

// The Python unit tests (test_receiver.py): known-answer vectors, tolerance,
// rotation, the store, the handler. Run here so CI runs them.
it('passes the Python unit tests of receiver.py, known-answer vectors included', () => {
  const { status, ran, report } = runPythonUnittests(fileURLToPath(new URL('..', import.meta.url)))
  expect(status, report).toBe(0)
  expect(ran, report).toBeGreaterThanOrEqual(17)
  expect(report).toMatch(/test_each_vector_verifies_at_its_time_and_a_changed_byte_does_not \S+ \.\.\. ok/)
})
