import type { ComponentCreateParsed, Storage } from '@complib/core'

/** A small deterministic PRNG (mulberry32): the same seed gives the same library on every machine. */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const FAMILIES = [
  { category: 'Resistors', prefix: 'RES', name: (v: string, p: string) => `R ${v} ${p}`, values: ['10', '47', '100', '1k', '4k7', '10k', '47k', '100k', '1M'], unit: 'Ω', param: 'Resistance' },
  { category: 'Capacitors', prefix: 'CAP', name: (v: string, p: string) => `C ${v} ${p}`, values: ['10p', '100p', '1n', '10n', '100n', '1u', '4.7u', '10u', '22u'], unit: 'F', param: 'Capacitance' },
  { category: 'Inductors', prefix: 'IND', name: (v: string, p: string) => `L ${v} ${p}`, values: ['1u', '2.2u', '4.7u', '10u', '22u', '100u'], unit: 'H', param: 'Inductance' },
  { category: 'ICs', prefix: 'IC', name: (v: string, p: string) => `${v} ${p}`, values: ['LM358', 'NE555', 'TL072', 'STM32F103', 'ATmega328P', 'LM317', 'AMS1117'], unit: null, param: 'Function' },
] as const
const PACKAGES = ['0402', '0603', '0805', '1206', 'SOT-23', 'SOIC-8', 'QFN-32', 'TSSOP-20']
const MANUFACTURERS = ['Yageo', 'Vishay', 'Murata', 'TDK', 'KEMET', 'Texas Instruments', 'STMicroelectronics', 'Microchip', 'Bourns', 'Panasonic']
const TAGS = ['passive', 'smd', 'tht', 'automotive', 'low-noise', 'precision', 'high-voltage', 'rohs', 'stocked', 'eol-watch']
const EXTRA = [
  ['Tolerance', ['1%', '5%', '10%', '20%'], null],
  ['Voltage rating', ['6.3', '16', '25', '50', '100'], 'V'],
  ['Power', ['62.5m', '100m', '125m', '250m'], 'W'],
  ['Temperature coefficient', ['X7R', 'C0G', 'X5R', '100ppm'], null],
  ['Operating temperature', ['-40..85', '-55..125'], '°C'],
  ['Mounting', ['SMD', 'THT'], null],
  ['Height', ['0.35', '0.5', '0.8', '1.1'], 'mm'],
] as const

/** Symbols and footprints a generated library links to: ids by symbol family and by package. */
export interface LibraryLinks {
  symbols: Record<string, string>
  footprints: Record<string, string>
}

/**
 * A realistic library of `size` components from a fixed seed: every family's
 * symbol and every package's footprint exist, and each component links to one
 * of each (see makeComponent). Written in transactions of 1,000.
 */
export async function seedLibrary(storage: Storage, size: number, seed = 42): Promise<void> {
  const random = createRandom(seed)
  const links: LibraryLinks = { symbols: {}, footprints: {} }
  for (const family of FAMILIES) {
    links.symbols[family.prefix] = (await storage.symbols.create({ name: family.category.slice(0, -1), library: 'Device', description: `${family.category} symbol`, fileName: null, content: null })).id
  }
  for (const pkg of PACKAGES) {
    links.footprints[pkg] = (await storage.footprints.create({ name: pkg, library: pkg.startsWith('SO') || pkg.startsWith('QFN') || pkg.startsWith('TSSOP') ? 'Package_SO' : 'Resistor_SMD', description: `${pkg} land pattern`, fileName: null, content: null })).id
  }
  for (let start = 0; start < size; start += 1000) {
    await storage.transaction(async (tx) => {
      for (let i = start; i < Math.min(size, start + 1000); i++) await tx.components.create(makeComponent(i, random, links))
    })
  }
}

/** The i-th component of a realistic library: 3–8 parameters, 1–3 MPNs, 1–3 tags, a category, links to a symbol and a footprint when given. */
export function makeComponent(i: number, random: () => number, links?: LibraryLinks): ComponentCreateParsed {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const family = pick(FAMILIES)
  const value = pick(family.values)
  const pkg = pick(PACKAGES)
  const extras = [...EXTRA].sort(() => random() - 0.5).slice(0, 2 + Math.floor(random() * 6))
  return {
    name: family.name(value, pkg),
    ipn: `${family.prefix}-${String(i).padStart(6, '0')}`,
    description: `${family.category.slice(0, -1)} ${value}${family.unit ?? ''} in ${pkg}`,
    category: family.category,
    tags: [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(TAGS)))],
    parameters: [
      { type: family.param, value, unit: family.unit },
      { type: 'Package', value: pkg },
      ...extras.map(([type, values, unit]) => ({ type, value: pick(values), unit })),
    ],
    mpns: Array.from({ length: 1 + Math.floor(random() * 3) }, (_, k) => ({
      manufacturer: pick(MANUFACTURERS),
      partNumber: `${family.prefix}${pkg.replace(/\W/g, '')}-${i.toString(36).toUpperCase()}-${k}`,
    })),
    ...(links ? { symbols: [links.symbols[family.prefix]!], footprints: [links.footprints[pkg]!] } : {}),
  }
}
