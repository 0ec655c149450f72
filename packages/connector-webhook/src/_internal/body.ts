/**
 * A delivery's body: `{"entities":` + the entities' JSON array + `}`. The
 * connector builds it; the executor recognises it as the batch sent as read.
 */
export const ENTITIES_OPEN = Buffer.from('{"entities":')
export const ENTITIES_CLOSE = Buffer.from('}')

/** The body that carries `entities` (the JSON array's bytes). */
export function entitiesBody(entities: Uint8Array): Buffer {
  return Buffer.concat([ENTITIES_OPEN, entities, ENTITIES_CLOSE])
}
