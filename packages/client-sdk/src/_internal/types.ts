import type * as z from 'zod'

/**
 * The query a script passes for a route whose query schema is `S`: the keys
 * and optionality of the schema's input (defaults make keys optional), with
 * the parsed type where the input type says nothing useful (`limit` coerced
 * from text is `unknown` as input, `number` as output).
 */
export type QueryOf<S extends z.ZodType> = {
  [K in keyof z.input<S>]: unknown extends z.input<S>[K] ? _OutputOf<S, K> : z.input<S>[K] | _OutputOf<S, K>
}

type _OutputOf<S extends z.ZodType, K extends PropertyKey> = K extends keyof z.output<S> ? z.output<S>[K] : never

/** A list query without `cursor`: iterators manage it. */
export type IterateQueryOf<S extends z.ZodType> = Omit<QueryOf<S>, 'cursor'>

/** Options of a write that may be guarded by the record's version. */
export interface IfMatchOptions {
  /**
   * The version you read (`component.version`, or its ETag `"3"`): the write
   * only happens while the record is still at that version; otherwise it
   * fails with `PreconditionFailedError` (412).
   */
  ifMatch?: number | string | undefined
}
