/** Every character a terminal, a log viewer or a line-splitting reader takes as the end of a line. */
const LINE_BREAKS = /[\r\n\u0085\u2028\u2029]/g

const ESCAPES: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\u0085': '\\u0085', '\u2028': '\\u2028', '\u2029': '\\u2029' }

/**
 * A connector's text (a log line, an error message) as one line: each line
 * break is written out as its escape (`\n`, `\u2028`, …), so the text stays
 * readable but cannot start a line of its own, and a connector cannot forge
 * lines that seem to come from the server or from another batch.
 *
 * @example
 * oneLine('sent\n[batch 9] all good') // 'sent\\n[batch 9] all good'
 */
export function oneLine(text: string): string {
  return text.replace(LINE_BREAKS, (c) => ESCAPES[c]!)
}
