import type { ComplibClient, Component, ComponentStatus, PatchManyItem } from '@complib/client-sdk'

export interface BulkEditOptions {
  /** Case-insensitive regular expression, tested against name, ipn and part numbers. */
  match: RegExp
  /** The new description; `{name}`, `{ipn}`, `{category}` and `{description}` are filled in per component. */
  set: string
  /** Narrow the listing on the server first. */
  category?: string | undefined
  tag?: string | undefined
  status?: ComponentStatus | undefined
  dryRun: boolean
  concurrency: number
}

export interface BulkEditSummary {
  listed: number
  matched: number
  changed: number
  unchanged: number
  failed: Array<{ ipn: string; reason: string }>
}

/**
 * The seed's script: GET every component, PATCH the description of those
 * matching a filter. Each PATCH carries the version it was computed from
 * (If-Match), so a component someone changed meanwhile is reported, never
 * overwritten. A dry run prints what would change and sends no PATCH.
 */
export async function bulkEditDescriptions(client: ComplibClient, options: BulkEditOptions, print: (line: string) => void): Promise<BulkEditSummary> {
  const summary: BulkEditSummary = { listed: 0, matched: 0, changed: 0, unchanged: 0, failed: [] }
  const edits: Array<PatchManyItem & { ipn: string; from: string | null; to: string }> = []
  for await (const c of client.components.iterate({ category: options.category, tag: options.tag, status: options.status })) {
    summary.listed++
    if (!isMatch(c, options.match)) continue
    summary.matched++
    const to = render(options.set, c)
    if (to === (c.description ?? '')) {
      summary.unchanged++
      continue
    }
    edits.push({ id: c.id, ipn: c.ipn, from: c.description, to, patch: { description: to }, ifMatch: c.version })
  }
  print(`${summary.listed} components listed, ${summary.matched} match ${options.match}, ${edits.length} to change${options.dryRun ? ' (dry run: nothing is sent)' : ''}`)

  if (options.dryRun) {
    for (const e of edits) print(`would change ${e.ipn}: ${JSON.stringify(e.from)} → ${JSON.stringify(e.to)}`)
    summary.changed = 0
    return summary
  }

  const byId = new Map(edits.map((e) => [e.id, e]))
  const result = await client.components.patchMany(edits, {
    concurrency: options.concurrency,
    onProgress: (p) => {
      const ipn = byId.get(p.id)!.ipn
      print(`[${p.done}/${p.total}] ${ipn} ${p.error ? `failed: ${p.error.message}` : 'changed'}`)
    },
  })
  summary.changed = result.patched
  summary.failed = result.failed.map((f) => ({ ipn: byId.get(f.id)!.ipn, reason: f.error.message }))
  print(`${result.patched} changed, ${result.failed.length} failed, ${summary.unchanged} already up to date`)
  return summary
}

/** Whether the filter matches the component's name, ipn or one of its part numbers. */
export function isMatch(c: Component, match: RegExp): boolean {
  return [c.name, c.ipn, ...c.mpns.map((m) => m.partNumber)].some((text) => match.test(text))
}

/** Fills `{name}`, `{ipn}`, `{category}` and `{description}` in; unknown placeholders stay as written. */
export function render(template: string, c: Component): string {
  const values: Record<string, string> = { name: c.name, ipn: c.ipn, category: c.category ?? '', description: c.description ?? '' }
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole).trim()
}
