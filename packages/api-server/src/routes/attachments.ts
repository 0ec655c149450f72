import { Attachment, AttachmentFromUrl, AttachmentKind, AttachmentListQuery, AttachmentPatch, AttachmentUploadMeta, ComplibError, FileName, fromZodError, idSchema, isComplibError, lastSegmentOf } from '@complib/core'
import * as z from 'zod'
import type { CountUsers } from '../blobs'
import { downloadHeaders } from '../http/download-headers'
import { isDatasheetCapability } from '../kicad/datasheet-capability'
import { attachmentDisposition } from '../routing/content-disposition'
import { defineRoute, type AppServices } from '../routing/define-route'
import { PAGE_HEADERS, pageHeaders } from '../routing/paging'
import { created, noContent, withHeaders } from '../routing/reply'
import { ifMatchVersion, readBodyBytes } from '../routing/request'

const Params = z.object({ id: idSchema('attachment') })
/** Largest upload: datasheets and CAD files, not video. */
const UPLOAD_LIMIT = 50 * 1024 * 1024

export const attachmentRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/attachments',
    group: 'attachments',
    operationId: 'listAttachments',
    permission: 'library:read',
    summary: 'List attachments',
    query: AttachmentListQuery,
    responses: { 200: { description: 'Attachments', schema: z.array(Attachment), headers: PAGE_HEADERS } },
    handler: async ({ query, services, url }) => {
      const page = await services.storage.attachments.list(query)
      return withHeaders(page.items, pageHeaders(url, page))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/attachments',
    group: 'attachments',
    operationId: 'uploadAttachment',
    permission: 'library:write',
    summary: 'Upload a file (multipart/form-data with a `file` field, or the raw bytes)',
    description:
      'Multipart: fields `file`, and optionally `componentId`, `kind`, `name`. Raw: the body is the file; `name` (required), `componentId` and `kind` go in the query, the type in Content-Type. Up to 50 MiB. The bytes are stored in the data folder and fsync’d before the answer.',
    query: AttachmentUploadMeta,
    rawBody: {
      description: 'The file: as multipart/form-data with a `file` field, or as the raw bytes with their own Content-Type (then `name` goes in the query)',
      content: {
        'multipart/form-data': {
          schema: z.object({
            file: z.string().meta({ format: 'binary', description: 'The file' }),
            componentId: idSchema('component').optional(),
            kind: AttachmentKind.optional(),
            name: FileName.optional(),
          }),
        },
        'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) },
        '*/*': { schema: z.string().meta({ format: 'binary' }) },
      },
    },
    bodyLimit: UPLOAD_LIMIT,
    errors: ['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'],
    responses: { 201: { description: 'Stored', schema: Attachment, headers: { location: { description: 'URL of the attachment' } } } },
    handler: async ({ event, query, services }) => {
      const upload = await _readUpload(event.req, query)
      const attachment = await services.blobs.put(
        upload.bytes,
        (sha256) =>
          services.storage.attachments.create({
            componentId: upload.componentId ?? null,
            name: upload.name,
            kind: upload.kind ?? _kindOf(upload.contentType),
            contentType: upload.contentType,
            size: upload.bytes.byteLength,
            sha256,
            url: null,
          }),
        _users(services),
      )
      return created(attachment, `/api/attachments/${attachment.id}`)
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/attachments/from-url',
    group: 'attachments',
    operationId: 'createAttachmentFromUrl',
    permission: 'library:write',
    summary: 'Record a link to an external file (nothing is downloaded)',
    body: AttachmentFromUrl,
    responses: { 201: { description: 'Recorded', schema: Attachment, headers: { location: { description: 'URL of the attachment' } } } },
    handler: async ({ body, services }) => {
      const name = body.name ?? (lastSegmentOf(body.url) || 'link')
      const parsedName = FileName.safeParse(name)
      const attachment = await services.storage.attachments.create({
        componentId: body.componentId ?? null,
        name: parsedName.success ? parsedName.data : 'link',
        kind: body.kind ?? (/\.pdf$/i.test(name) ? 'datasheet' : 'other'),
        contentType: body.contentType ?? 'text/uri-list',
        size: null,
        sha256: null,
        url: body.url,
      })
      return created(attachment, `/api/attachments/${attachment.id}`)
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/attachments/{id}',
    group: 'attachments',
    operationId: 'getAttachment',
    permission: 'library:read',
    summary: 'Get an attachment record',
    params: Params,
    responses: { 200: { description: 'The attachment', schema: Attachment } },
    handler: ({ params, services }) => services.storage.attachments.get(params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/attachments/{id}',
    group: 'attachments',
    operationId: 'patchAttachment',
    permission: 'library:write',
    ifMatch: true,
    summary: 'Rename, reclassify or move an attachment to another component',
    params: Params,
    body: AttachmentPatch,
    errors: ['PRECONDITION_FAILED'],
    responses: { 200: { description: 'The attachment', schema: Attachment } },
    handler: ({ params, body, services, event }) => services.storage.attachments.update(params.id, body, { ifVersion: ifMatchVersion(event.req) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/attachments/{id}',
    group: 'attachments',
    operationId: 'deleteAttachment',
    permission: 'library:write',
    summary: 'Delete an attachment (its bytes go when nothing else uses them)',
    params: Params,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, services }) => {
      const deleted = await services.storage.attachments.delete(params.id)
      if (deleted.sha256) await services.blobs.release(deleted.sha256, _users(services))
      return noContent()
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/attachments/{id}/content',
    group: 'attachments',
    operationId: 'getAttachmentContent',
    permission: 'library:read',
    summary: 'Download the stored bytes',
    description: 'Always served as a download, never rendered, so an uploaded HTML or SVG file cannot run in this origin.',
    params: Params,
    responses: { 200: { description: 'The file', contentType: 'application/octet-stream' } },
    handler: async ({ params, services }) => {
      const a = await services.storage.attachments.get(params.id)
      if (!a.sha256) throw new ComplibError('NOT_FOUND', `attachment ${a.id} has no stored content; it links to ${a.url}`)
      return _content(a, await services.blobs.get(a.sha256))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/attachments/{id}/datasheet/{capability}',
    group: 'attachments',
    operationId: 'getDatasheetByCapability',
    permission: 'public',
    summary: 'Download an uploaded datasheet through the link KiCad is given',
    description:
      'The datasheet field of a KiCad part links here (decision 0639): the capability in the path opens this one attachment’s stored bytes without a credential, since the browser KiCad opens has none. A wrong capability, a link attachment or a deleted one is 404.',
    params: z.object({ id: idSchema('attachment'), capability: z.string().regex(/^[A-Za-z0-9_-]{43}$/, { error: 'expected the 43-character capability of a datasheet link' }) }),
    responses: { 200: { description: 'The file', contentType: 'application/octet-stream' } },
    handler: async ({ params, services }) => {
      // Every refusal reads the same, so the answer tells nothing about which attachments exist.
      const refused = new ComplibError('NOT_FOUND', 'no datasheet at this link')
      const a = await services.storage.attachments.get(params.id).catch((error: unknown) => {
        if (isComplibError(error) && error.code === 'NOT_FOUND') return null
        throw error
      })
      if (!a?.sha256 || !isDatasheetCapability(params.capability, a.id, a.sha256)) throw refused
      return _content(a, await services.blobs.get(a.sha256))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/components/{id}/attachments',
    group: 'attachments',
    operationId: 'listComponentAttachments',
    permission: 'library:read',
    summary: 'Attachments of a component',
    params: z.object({ id: idSchema('component') }),
    responses: { 200: { description: 'Attachments', schema: z.array(Attachment) } },
    handler: ({ params, services }) => services.storage.attachments.listForComponent(params.id),
  }),
]

interface _Upload {
  bytes: Uint8Array
  name: string
  contentType: string
  componentId?: string | undefined
  kind?: AttachmentKind | undefined
}

async function _readUpload(request: Request, query: z.output<typeof AttachmentUploadMeta>): Promise<_Upload> {
  const type = request.headers.get('content-type') ?? 'application/octet-stream'
  const bytes = await readBodyBytes(request, UPLOAD_LIMIT)
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    if (!query.name) {
      throw new ComplibError('VALIDATION_FAILED', 'query.name: a raw upload needs ?name=<file name>', { errors: [{ path: 'query.name', message: 'required for a raw upload' }] })
    }
    if (bytes.byteLength === 0) throw new ComplibError('VALIDATION_FAILED', 'body: the file is empty', { errors: [{ path: 'body', message: 'empty' }] })
    return { bytes, name: query.name, contentType: type.split(';')[0]!.trim(), componentId: query.componentId, kind: query.kind }
  }
  let form: FormData
  try {
    form = await new Response(bytes, { headers: { 'content-type': type } }).formData()
  } catch {
    throw new ComplibError('VALIDATION_FAILED', 'body: not a readable multipart/form-data body', { errors: [{ path: 'body', message: 'malformed multipart' }] })
  }
  const file = form.get('file')
  if (!file || typeof file === 'string') {
    throw new ComplibError('VALIDATION_FAILED', 'body.file: a file field named "file" is required', { errors: [{ path: 'body.file', message: 'required' }] })
  }
  const fields = AttachmentUploadMeta.safeParse({
    componentId: _field(form, 'componentId') ?? query.componentId,
    kind: _field(form, 'kind') ?? query.kind,
    name: _field(form, 'name') ?? query.name ?? file.name,
  })
  if (!fields.success) throw fromZodError(fields.error, 'body')
  if (!fields.data.name) throw new ComplibError('VALIDATION_FAILED', 'body.name: the file has no name', { errors: [{ path: 'body.name', message: 'required' }] })
  return {
    bytes: new Uint8Array(await file.arrayBuffer()),
    name: fields.data.name,
    contentType: file.type || 'application/octet-stream',
    componentId: fields.data.componentId,
    kind: fields.data.kind,
  }
}

function _field(form: FormData, name: string): string | undefined {
  const value = form.get(name)
  return typeof value === 'string' && value !== '' ? value : undefined
}

function _kindOf(contentType: string): AttachmentKind {
  if (contentType === 'application/pdf') return 'datasheet'
  if (contentType.startsWith('image/')) return 'image'
  return 'other'
}

/** Stored bytes, always as a download and never rendered, so an uploaded HTML or SVG file cannot run in this origin. */
function _content(a: Attachment, bytes: Uint8Array): Response {
  return new Response(bytes, {
    headers: { ...downloadHeaders(a.contentType, attachmentDisposition(a.name)), 'content-length': String(bytes.byteLength) },
  })
}

/** Records referring to a digest: what decides whether its bytes may go (see BlobStore). */
function _users(services: AppServices): CountUsers {
  return (sha256) => services.storage.attachments.countBySha256(sha256)
}

/** The decoded last path segment of a URL; as written when its percent-encoding is malformed (`%E0%A4%A`). */
