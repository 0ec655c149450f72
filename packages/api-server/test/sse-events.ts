/** The `event:` / `data:` pairs of a server-sent event stream's text, each data parsed as JSON. */
export function parseEvents(text: string): Array<{ event: string; data: any }> {
  return text
    .split('\n\n')
    .map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1], data: /^data: (.*)$/m.exec(block)?.[1] }))
    .filter((e): e is { event: string; data: string } => e.event !== undefined && e.data !== undefined)
    .map((e) => ({ event: e.event, data: JSON.parse(e.data) }))
}
