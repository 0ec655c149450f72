import type { Attachment, AttachmentFromUrl, AttachmentKind, AttachmentListQuery, AttachmentPatch, Page } from '@complib/core'
import { iteratePages, readPage } from '../_internal/paging'
import { path, type Transport } from '../_internal/transport'
import type { IfMatchOptions, IterateQueryOf, QueryOf } from '../_internal/types'

export interface AttachmentUpload {
  /** The file name as stored (no slashes). */
  name: string
  /** Defaults to application/octet-stream. */
  contentType?: string | undefined
  componentId?: string | undefined
  kind?: AttachmentKind | undefined
}

/** `client.attachments`: files linked to components (datasheets, images, CAD). */
export function createAttachmentsResource(t: Transport) {
  return {
    list: (query: QueryOf<typeof AttachmentListQuery> = {}): Promise<Page<Attachment>> => readPage(t, '/attachments', query),
    iterate: (query: IterateQueryOf<typeof AttachmentListQuery> = {}): AsyncGenerator<Attachment, void, undefined> => iteratePages(t, '/attachments', query),
    get: (id: string): Promise<Attachment> => t.call('GET', path`/attachments/${id}`),
    /** Attachments of one component. */
    forComponent: (componentId: string): Promise<Attachment[]> => t.call('GET', path`/components/${componentId}/attachments`),
    /**
     * Uploads a file's bytes (up to 50 MiB), optionally linked to a component.
     *
     * @example
     * await client.attachments.upload(await readFile('ds.pdf'), { name: 'ds.pdf', contentType: 'application/pdf', componentId })
     */
    upload: (content: Blob | Uint8Array | string, meta: AttachmentUpload): Promise<Attachment> =>
      t.call('POST', '/attachments', {
        query: { name: meta.name, componentId: meta.componentId, kind: meta.kind },
        rawBody: content as NonNullable<RequestInit['body']>,
        contentType: meta.contentType ?? 'application/octet-stream',
      }),
    /** Records a link to a file elsewhere (a manufacturer's datasheet URL); nothing is fetched. */
    fromUrl: (body: AttachmentFromUrl): Promise<Attachment> => t.call('POST', '/attachments/from-url', { body }),
    patch: (id: string, body: AttachmentPatch, options: IfMatchOptions = {}): Promise<Attachment> =>
      t.call('PATCH', path`/attachments/${id}`, { body, ifMatch: options.ifMatch }),
    delete: (id: string): Promise<void> => t.call('DELETE', path`/attachments/${id}`),
    /** The stored bytes. */
    content: async (id: string): Promise<Uint8Array> => new Uint8Array(await t.call<ArrayBuffer>('GET', path`/attachments/${id}/content`, { responseType: 'arrayBuffer' })),
  }
}

export type AttachmentsResource = ReturnType<typeof createAttachmentsResource>
