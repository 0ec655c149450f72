import { runPythonUnittests } from '@complib/example-test-support'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

// The Python unit tests (test_bulk_edit.py): Link parsing, templates, and a
// fake server's 412. Run here so CI runs them.
it('passes the Python unit tests of bulk_edit.py', () => {
  const { status, ran, report } = runPythonUnittests(fileURLToPath(new URL('..', import.meta.url)))
  expect(status, report).toBe(0)
  expect(ran, report).toBeGreaterThanOrEqual(7)
})
