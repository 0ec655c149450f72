import type { LocationTreeNode } from '../schemas/location'

/** Each location's path (names from the root) by its id. */
export function toLocationPaths(nodes: LocationTreeNode[], prefix: string[] = [], out = new Map<string, string[]>()): Map<string, string[]> {
  for (const n of nodes) {
    const path = [...prefix, n.name]
    out.set(n.id, path)
    toLocationPaths(n.children, path, out)
  }
  return out
}
