// One zod schema per resource: the single source of validation, TypeScript
// types and the OpenAPI document.
export * from './common'
export * from './component'
export * from './library-item'
export * from './attachment'
export * from './manufacturer'
export * from './mpn'
export * from './parameter'
export * from './tag'
export * from './location'
export * from './connector'
export * from './run'
