import type { SourceParameter } from '@complib/core'

/** A parameter with every value a provider gave for its name. */
export interface NamedValues {
  name: string
  values: string[]
}

/**
 * Name–value pairs (already cleaned: null for none) by name, in the
 * provider's order, names compared without case: providers that list a
 * parameter of several values once per value (Packaging: Reel, Cut Tape)
 * give it once, with each value once.
 */
export function mergeByName(pairs: Iterable<readonly [name: string | null, value: string | null]>): NamedValues[] {
  const out: NamedValues[] = []
  for (const [name, value] of pairs) {
    if (!name || !value) continue
    const held = out.find((o) => o.name.toLowerCase() === name.toLowerCase())
    if (!held) out.push({ name, values: [value] })
    else if (!held.values.includes(value)) held.values.push(value)
  }
  return out
}

/** One as the contract's parameter: its values joined by ", "; a single value split into value and unit by `splitUnit` when it can. */
export function parameterOf(p: NamedValues, splitUnit: (text: string) => { value: string; unit: string } | null): SourceParameter {
  const value = p.values.join(', ')
  const split = p.values.length === 1 ? splitUnit(value) : null
  return { name: p.name.slice(0, 100), value: (split?.value ?? value).slice(0, 500), unit: split?.unit ?? null }
}
