import { expectTypeOf } from 'vitest'
import * as z from 'zod'
import { defineRoute, type ResponseBody, type RouteAnswer } from '../src/routing/define-route'
import { created, jsonResponse, noContent, Reply, withHeaders } from '../src/routing/reply'

// Compiled by the package typecheck (tsconfig.json includes test/), never run:
// each `@ts-expect-error` below must meet a compile error, or tsc reports the
// directive as unused. A handler is typed by the route's own `responses`.

const Part = z.object({ id: z.string(), name: z.string(), stock: z.int().default(0) })
const Problemish = z.object({ detail: z.string() })
const part = { id: 'p1', name: 'R1', stock: 3 }
const base = { method: 'GET', path: '/api/parts/{id}', group: 'components', operationId: 'getPart', permission: 'library:read', summary: 'A part' } as const

// A handler answering what the route declares compiles, returned as is or awaited.
defineRoute({ ...base, responses: { 200: { description: 'The part', schema: Part } }, handler: () => part })
defineRoute({ ...base, responses: { 200: { description: 'The part', schema: Part } }, handler: async () => withHeaders(part, { etag: '"1"' }) })
defineRoute({
  ...base,
  responses: { 201: { description: 'Created', schema: Part }, 202: { description: 'Queued', schema: Problemish } },
  handler: ({ url }) => (url.search ? new Reply(202, { detail: 'later' }) : created(part, '/api/parts/p1')),
})
defineRoute({ ...base, responses: { 204: { description: 'Deleted' } }, handler: async () => noContent() })

// A raw Response is the explicit way out for bytes (files, streams, stored JSON): its body is not checked.
defineRoute({ ...base, responses: { 200: { description: 'The part', schema: Part } }, handler: () => jsonResponse('{"id":"p1"}') })
defineRoute({ ...base, responses: { 200: { description: 'The file', contentType: 'application/octet-stream' } }, handler: async () => new Response(new Uint8Array(1)) })

defineRoute({
  ...base,
  responses: { 200: { description: 'The part', schema: Part } },
  // @ts-expect-error a required field is missing (`stock` has a default, but nothing parses the answer: the output type is what is sent)
  handler: () => ({ id: 'p1', name: 'R1' }),
})
defineRoute({
  ...base,
  responses: { 200: { description: 'The part', schema: Part } },
  // @ts-expect-error a field of the wrong type, in a Promise
  handler: async () => ({ ...part, stock: '3' }),
})
defineRoute({
  ...base,
  responses: { 200: { description: 'The part', schema: Part } },
  // @ts-expect-error 202 is not a status of this route
  handler: () => new Reply(202, part),
})
defineRoute({
  ...base,
  responses: { 200: { description: 'The part', schema: Part }, 202: { description: 'Queued', schema: Problemish } },
  // @ts-expect-error a declared status with another status's body
  handler: () => withHeaders(part, {}, 202),
})
defineRoute({
  ...base,
  responses: { 200: { description: 'The part', schema: Part } },
  // @ts-expect-error no 204 is declared
  handler: async () => noContent(),
})
defineRoute({
  ...base,
  responses: { 200: { description: 'The part', schema: Part } },
  // @ts-expect-error no 201 is declared
  handler: () => created(part, '/api/parts/p1'),
})
defineRoute({
  ...base,
  responses: { 201: { description: 'Created' } },
  // @ts-expect-error a 201 without a schema has no body to give
  handler: () => created(part, '/api/parts/p1'),
})
defineRoute({
  ...base,
  responses: { 201: { description: 'Created', schema: Part } },
  // @ts-expect-error a plain value goes out with the lowest 2xx (201 here): an undefined one would be a 204
  handler: () => undefined,
})
defineRoute({
  ...base,
  responses: { 200: { description: 'The file', contentType: 'application/octet-stream' } },
  // @ts-expect-error a response without a schema is answered with a Response, not a value
  handler: () => part,
})

expectTypeOf<ResponseBody<{ description: string; schema: typeof Part }>>().toEqualTypeOf<z.output<typeof Part>>()
expectTypeOf<ResponseBody<{ description: string }>>().toEqualTypeOf<undefined>()
expectTypeOf(noContent()).toEqualTypeOf<Reply<204, undefined>>()
expectTypeOf(created(part, '/x')).toEqualTypeOf<Reply<201, typeof part>>()
expectTypeOf<RouteAnswer<{ 204: { description: string } }>>().toEqualTypeOf<undefined | Reply<204, undefined> | Response>()
