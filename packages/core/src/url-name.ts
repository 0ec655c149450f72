/** A link's file name: the last segment of its path, percent-decoded when that decodes (a bad escape such as `%zz` is kept as written). */
export function lastSegmentOf(url: string): string {
  const segment = new URL(url).pathname.split('/').pop() ?? ''
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
