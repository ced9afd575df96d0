import { z } from 'zod'
import { sandboxErrors } from '../../control/errors.js'
import type { RouteSpec } from '../../http/routes.js'
import { schemaRoute } from '../../http/schema.js'
import type { Store } from '../../store/index.js'
import { iso } from '../../time.js'
import type { PushImage } from './table.js'

// The images of the image API (POST /v3/images/…, docs/jpush-wire.md "Images") as the vendor never
// shows them: what each channel adopted and from what, and the uploaded files' bytes.

const file = z.object({
  channel: z.string(),
  file_name: z.string(),
  content_type: z.string().describe('From the bytes: image/png or image/jpeg.'),
  width: z.int().nullable(),
  height: z.int().nullable(),
  size: z.int().describe('Bytes.'),
  uploaded_at: z.string(),
  url: z.string().describe('Where GET answers the bytes as uploaded.'),
})

export const pushImageSchema = z.object({
  media_id: z.string(),
  image_type: z.int().describe('1 big picture, 2 large icon, 3 small icon.'),
  source: z.enum(['url', 'file']).describe('How it was last given.'),
  image_url: z.string().nullable(),
  channels: z
    .record(z.string(), z.object({ value: z.string(), from: z.string() }))
    .describe(
      'What each channel adopted (`value`, as the API answered it) and from what (an address, or `file:<name>`).',
    ),
  files: z.array(file),
  created_at: z.string(),
  updated_at: z.string(),
  expires_at: z.string().describe('30 days after its last change: the image is gone then.'),
})

const mediaParams = z.object({ media_id: z.string() })

export function pushImageRoutes(deps: { store: Store }): RouteSpec[] {
  const { store } = deps
  const view = (i: PushImage): z.input<typeof pushImageSchema> => ({
    media_id: i.mediaId,
    image_type: i.imageType,
    source: i.source,
    image_url: i.imageUrl,
    channels: i.channels,
    files: store.pushImages.files(i.mediaId).map(f => ({
      channel: f.channel,
      file_name: f.fileName,
      content_type: f.contentType,
      width: f.width,
      height: f.height,
      size: f.size,
      uploaded_at: iso(f.uploadedAt),
      url: `/_sandbox/push/images/${i.mediaId}/files/${f.channel}`,
    })),
    created_at: iso(i.createdAt),
    updated_at: iso(i.updatedAt),
    expires_at: iso(i.expiresAt),
  })
  const found = (appKey: string, mediaId: string, now: number) => {
    const i = store.pushImages.get(appKey, mediaId, now)
    if (!i) throw sandboxErrors.unknownMediaId()
    return i
  }
  return [
    schemaRoute({
      method: 'GET',
      url: '/push/images',
      docs: {
        summary: "The app's images (POST /v3/images/byurls and /byfiles), newest first",
        description:
          "Every image the app uploaded or linked and that is within its 30 days: its `media_id`, its type, where it came from, the files kept per channel (with the address of their bytes) and when it expires on the app's clock.",
      },
      schema: { response: { 200: z.object({ images: z.array(pushImageSchema) }) } },
      handler: async req => ({
        images: store.pushImages.list(req.tenant.app.appKey, req.tenant.now()).map(view),
      }),
    }),
    schemaRoute({
      method: 'GET',
      url: '/push/images/:media_id',
      docs: {
        summary: 'One image of the app by its media_id',
        description:
          'As in the list; 404 90045 for a media_id the app does not have or that is past its 30 days.',
        errors: [sandboxErrors.unknownMediaId()],
      },
      schema: { params: mediaParams, response: { 200: pushImageSchema } },
      handler: async req => view(found(req.tenant.app.appKey, req.params.media_id, req.tenant.now())),
    }),
    schemaRoute({
      method: 'GET',
      url: '/push/images/:media_id/files/:channel',
      schema: { params: mediaParams.extend({ channel: z.string() }) },
      docs: {
        summary: 'An uploaded image file, byte for byte as sent (image/png or image/jpeg)',
        description:
          "The bytes of one channel's file of the image (`/v3/images/byfiles`), with its media type.",
        errors: [sandboxErrors.unknownMediaId()],
        answers: { 200: { description: 'The image.', media: 'image/png' } },
      },
      handler: async (req, reply) => {
        const i = found(req.tenant.app.appKey, req.params.media_id, req.tenant.now())
        const f = store.pushImages.file(i.mediaId, req.params.channel)
        if (!f) throw sandboxErrors.unknownMediaId()
        return reply.type(f.contentType).send(f.bytes)
      },
    }),
  ]
}
