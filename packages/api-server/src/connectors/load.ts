import { isConnectorDefinition, isSourceDefinition, type AnySourceDefinition, type ConnectorDefinition } from '@complib/core'
import { BUILT_IN_SOURCE_TYPES } from '@complib/sources'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { isAbsolute, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as z from 'zod'
import { BUILT_IN_CONNECTOR_TYPES } from './registry'

/** A connector module to load, and the folder a relative name or a package name is resolved from. */
export interface ConnectorModule {
  module: string
  from: string
}

/** The server's config file in the data folder (optional). */
export const CONFIG_FILE = 'complib.config.json'

const ConfigFile = z.strictObject({
  connectors: z.array(z.string().min(1)).default([]).describe('Connector modules to load: package names, or paths relative to this file'),
  sources: z.array(z.string().min(1)).default([]).describe('Source modules to load (defineSource): package names, or paths relative to this file'),
})

/** The connector modules named in `<dataDir>/complib.config.json`, if there is one. */
export function configuredConnectorModules(dataDir: string): ConnectorModule[] {
  return (_configFile(dataDir)?.connectors ?? []).map((module) => ({ module, from: dataDir }))
}

/** The source modules named in `<dataDir>/complib.config.json`, if there is one. */
export function configuredSourceModules(dataDir: string): ConnectorModule[] {
  return (_configFile(dataDir)?.sources ?? []).map((module) => ({ module, from: dataDir }))
}

function _configFile(dataDir: string): z.output<typeof ConfigFile> | null {
  const path = join(dataDir, CONFIG_FILE)
  if (!existsSync(path)) return null
  let json: unknown
  try {
    json = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`)
  }
  const parsed = ConfigFile.safeParse(json)
  if (!parsed.success) throw new Error(`${path}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`)
  return parsed.data
}

/**
 * Imports connector packages: each must export a definition made with
 * defineConnector, as its default export or as `connector`. Throws a message
 * naming the module when one cannot be loaded, is not a connector, or
 * repeats a type already loaded.
 */
export async function loadConnectorTypes(modules: readonly ConnectorModule[]): Promise<ConnectorDefinition[]> {
  const loaded: ConnectorDefinition[] = []
  const known = new Set(BUILT_IN_CONNECTOR_TYPES.map((t) => t.type))
  for (const { module, from } of modules) {
    let exports: Record<string, unknown>
    try {
      exports = (await import(_resolve(module, from))) as Record<string, unknown>
    } catch (error) {
      throw new Error(`connector module "${module}" could not be loaded: ${(error as Error).message}`)
    }
    const definition = [exports.default, exports.connector].find(isConnectorDefinition)
    if (!definition) throw new Error(`connector module "${module}" exports no connector: export the result of defineConnector({...}) as its default export`)
    if (known.has(definition.type)) throw new Error(`connector module "${module}": a connector type "${definition.type}" is already loaded`)
    known.add(definition.type)
    loaded.push(definition)
  }
  return loaded
}

/**
 * Imports source packages (decision 1600), as loadConnectorTypes does
 * connector packages: each must export a defineSource definition as its
 * default export or as `source`.
 */
export async function loadSourceTypes(modules: readonly ConnectorModule[]): Promise<AnySourceDefinition[]> {
  const loaded: AnySourceDefinition[] = []
  const known = new Set(BUILT_IN_SOURCE_TYPES.map((t) => t.type))
  for (const { module, from } of modules) {
    let exports: Record<string, unknown>
    try {
      exports = (await import(_resolve(module, from))) as Record<string, unknown>
    } catch (error) {
      throw new Error(`source module "${module}" could not be loaded: ${(error as Error).message}`)
    }
    const definition = [exports.default, exports.source].find(isSourceDefinition)
    if (!definition) throw new Error(`source module "${module}" exports no source: export the result of defineSource({...}) as its default export`)
    if (known.has(definition.type)) throw new Error(`source module "${module}": a source type "${definition.type}" is already loaded`)
    known.add(definition.type)
    loaded.push(definition)
  }
  return loaded
}

/**
 * A path (relative to `from`: a file, or a package folder) or a package name
 * (resolved from `from`) as an import specifier.
 */
function _resolve(module: string, from: string): string {
  const local = module.startsWith('.') || isAbsolute(module)
  const target = local ? resolve(from, module) : module
  try {
    return pathToFileURL(createRequire(join(resolve(from), 'noop.js')).resolve(target)).href
  } catch {
    // An ESM-only package without a "require" or "default" export: let import() resolve it.
    return local ? pathToFileURL(target).href : module
  }
}
