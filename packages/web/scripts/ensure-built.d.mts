export function isWebBuildStale(): boolean
export function ensureWebBuilt(options?: { quiet?: boolean }): boolean
