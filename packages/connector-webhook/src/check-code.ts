import { Script } from 'node:vm'
import { ComplibError } from '@complib/core'

/**
 * Checks connector code without running it: it must compile and define a
 * function `push`. A syntax error is a 400 naming `body.code` and the line.
 */
export function checkConnectorCode(code: string): void {
  try {
    // Compiling only: node:vm never runs it here (running happens in the QuickJS sandbox;
    // both take the same modern JavaScript, and the sandbox reports its own syntax errors too).
    new Script(`${code}\n;typeof push`, { filename: 'connector.js' })
  } catch (error) {
    const line = /connector\.js:(\d+)/.exec(String((error as Error).stack))?.[1]
    const message = `${(error as Error).message}${line ? ` (line ${line})` : ''}`
    throw new ComplibError('VALIDATION_FAILED', `body.code: ${message}`, { errors: [{ path: 'body.code', message }] })
  }
  if (!/\b(?:async\s+)?function\s+push\s*\(|\b(?:const|let|var)\s+push\s*=/.test(code)) {
    const message = 'the code must define a function named push(entities, config, helpers)'
    throw new ComplibError('VALIDATION_FAILED', `body.code: ${message}`, { errors: [{ path: 'body.code', message }] })
  }
}
