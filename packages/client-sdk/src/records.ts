import type * as core from '@complib/core'

// The API's records under their own names: type aliases, so that importing one
// never suggests a runtime value (core's zod schemas are not part of the client).

export type Actor = core.Actor
export type ApiToken = core.ApiToken
export type Attachment = core.Attachment
export type AuditEntry = core.AuditEntry
export type AuditVerification = core.AuditVerification
export type BulkResult = core.BulkResult
export type Component = core.Component
export type ComponentCreate = core.ComponentCreate
export type ComponentPatch = core.ComponentPatch
export type ComponentStatus = core.ComponentStatus
export type Connector = core.Connector
export type Source = core.Source
export type SourceTypeInfo = core.SourceTypeInfo
export type SourceCandidate = core.SourceCandidate
export type SourcePart = core.SourcePart
export type SupplierOffer = core.SupplierOffer
export type ComponentOffer = core.ComponentOffer
export type FieldProvenance = core.FieldProvenance
export type EnrichResult = core.EnrichResult
export type EnrichChange = core.EnrichChange
export type ErrorCode = core.ErrorCode
export type FieldError = core.FieldError
export type Footprint = core.Footprint
export type Health = core.Health
export type ImportRowOutcome = core.ImportRowOutcome
export type ImportSession = core.ImportSession
export type Location = core.Location
export type Manufacturer = core.Manufacturer
export type Me = core.Me
export type Mpn = core.Mpn
export type Parameter = core.Parameter
export type ParameterType = core.ParameterType
export type Problem = core.Problem
export type Role = core.Role
export type Run = core.Run
export type RunDetail = core.RunDetail
export type RunBatch = core.RunBatch
export type Settings = core.Settings
export type KicadSettings = core.KicadSettings
export type ExternalReference = core.ExternalReference
export type StockEntry = core.StockEntry
export type Suggestion = core.Suggestion
export type Symbol = core.Symbol
export type Tag = core.Tag
export type TokenCreated = core.TokenCreated
export type TokenScope = core.TokenScope
export type User = core.User
export type Page<T> = core.Page<T>
