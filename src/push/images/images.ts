import { randomBytes, randomUUID } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { PipelineDeps } from '../../deps.js'
import { readForm } from '../../http/body/multipart.js'
import { params, part, text } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import { pushErrors as e } from '../errors.js'
import { isObject } from '../values.js'
import {
  type Channel,
  FILE_CHANNELS,
  fits,
  IMAGE_LIMITS,
  IMAGE_TYPES,
  sniffImage,
  takes,
  URL_CHANNELS,
  wrongForm,
} from './rules.js'
import type { ChannelImage, ImageType, PushImage, PushImageFile } from './table.js'

// The image API (docs/jpush-wire.md "Images"; jsdk PushClient images, cav image/*.go, the old Java
// ImageClient): an image given by address (byurls) or uploaded (byfiles) becomes a media_id that a
// push names in its icon and picture fields (media.ts). Each vendor channel adopts what it takes
// for the image's type (rules.ts); the answer names what each adopted. The sandbox fetches no
// address: it keeps the addresses, and the bytes of uploaded files, for the control plane to show.

/** `jgmedia-<image_type>-<uuid>`, as the vendor's ids read (the old Java client's tests). */
const newMediaId = (type: ImageType) => `jgmedia-${type}-${randomUUID()}`
/** OPPO answers an id of its own image store, `<digits>_<24 hex>` (the old Java client's tests). */
const oppoId = () =>
  `${1_000_000 + (randomBytes(3).readUIntBE(0, 3) % 9_000_000)}_${randomBytes(12).toString('hex')}`

function readImageType(value: unknown): ImageType {
  if (value === undefined || value === null || value === '') throw e.missing('image_type')
  const n = typeof value === 'string' && /^\d$/.test(value.trim()) ? Number(value) : value
  if (n !== 1 && n !== 2 && n !== 3)
    throw e.invalid('image_type is invalid: 1 big picture, 2 large icon, 3 small icon')
  return n
}

interface UrlBody {
  imageType: ImageType | undefined
  imageUrl: string | undefined
  given: Partial<Record<Channel, string>>
}

function readUrl(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field]
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value !== 'string') throw e.invalid(`${field} must be a string`)
  if (value.length > IMAGE_LIMITS.urlChars)
    throw e.invalid(`${field} is longer than ${IMAGE_LIMITS.urlChars} characters`)
  return value
}

/** A byurls body: image_type (on create), then the addresses, at least one of them. */
function readUrlBody(raw: unknown, create: boolean): UrlBody {
  if (raw === undefined || raw === null) throw create ? e.missing('image_type') : e.missing('image_url')
  if (!isObject(raw)) throw e.invalid('The request body must be a JSON object')
  const imageType = create ? readImageType(raw.image_type) : undefined
  const imageUrl = readUrl(raw, 'image_url')
  const given: UrlBody['given'] = {}
  for (const channel of URL_CHANNELS) {
    const value = readUrl(raw, `${channel}_image_url`)
    if (value !== undefined) given[channel] = value
  }
  // "ImageUrl 以及各通道的字段值不能同时为空" (cav image/v3_add_by_url.go).
  if (imageUrl === undefined && Object.keys(given).length === 0)
    throw e.missing('image_url or a channel image url')
  return { imageType, imageUrl, given }
}

const urlErrors = (create: boolean) => [
  ...(create ? [e.missing('image_type')] : []),
  e.invalid('The request body must be a JSON object'),
  ...(create ? [e.invalid('image_type is invalid: 1 big picture, 2 large icon, 3 small icon')] : []),
  e.invalid('huawei_image_url must be a string'),
  e.invalid(`image_url is longer than ${IMAGE_LIMITS.urlChars} characters`),
  e.missing('image_url or a channel image url'),
  // A PUT knows the image's type, and so what its channels take, once it has found the image.
  ...(create ? [wrongForm('huawei', 2)] : []),
]

const urlSchema = (create: boolean) =>
  z.object({
    ...(create
      ? {
          image_type: z
            .union([z.literal(1), z.literal(2), z.literal(3)])
            .describe('1 big picture, 2 large icon, 3 small icon.'),
        }
      : {}),
    image_url: z
      .string()
      .describe(
        create
          ? 'The address every channel that takes it adopts when its own field is not given.'
          : 'Kept as the common address; channels not named keep what they had.',
      )
      .optional(),
    ...Object.fromEntries(URL_CHANNELS.map(c => [`${c}_image_url`, z.string().optional()])),
  })

const urlBody = (create: boolean) =>
  part({
    in: 'body',
    read: req => readUrlBody(req.body, create),
    schema: urlSchema(create),
    errors: urlErrors(create),
  })

/**
 * What each channel adopts: an address given for it, in a form it takes for the type (another
 * form is 1003; a channel that takes no such type is "not processed" and keeps what it had), else
 * the common image_url where it fits (on create). OPPO answers an id of its own store.
 */
function adopt(
  type: ImageType,
  body: UrlBody,
  create: boolean,
  had: Record<string, ChannelImage> = {},
): Record<string, ChannelImage> {
  const out: Record<string, ChannelImage> = { ...had }
  for (const channel of URL_CHANNELS) {
    if (!takes(channel, type)) continue
    const own = body.given[channel]
    if (own !== undefined && !fits(channel, type, own)) throw wrongForm(channel, type)
    const from =
      own ?? (create && body.imageUrl && fits(channel, type, body.imageUrl) ? body.imageUrl : undefined)
    if (from !== undefined) out[channel] = { value: channel === 'oppo' ? oppoId() : from, from }
  }
  return out
}

interface FileBody {
  imageType: ImageType | undefined
  files: Array<Omit<PushImageFile, 'mediaId' | 'uploadedAt'>>
}

/**
 * A byfiles form: `image_type` (on create) and the files `xiaomi_file` and/or `oppo_file`, each a
 * PNG or JPEG of at most 2 MiB (the format is read from the bytes, whatever the part's type says).
 * The old Java client may add huawei_file, fcm_file or jiguang_file: the vendor takes only Xiaomi's
 * and OPPO's, so those are not processed.
 */
async function readFileBody(req: FastifyRequest, create: boolean): Promise<FileBody> {
  const form = await readForm(
    req,
    { maxFileBytes: IMAGE_LIMITS.fileBytes, maxFiles: 5, maxFields: 8 },
    {
      empty: () => (create ? e.missing('image_type') : e.missing('xiaomi_file or oppo_file')),
      notMultipart: () => e.invalid('the images must be sent as multipart/form-data'),
      unreadable: reason => e.invalid(`the form cannot be read: ${reason}`),
    },
  )
  const imageType = create ? readImageType(form.fields.get('image_type')?.[0]) : undefined
  const files: FileBody['files'] = []
  for (const channel of FILE_CHANNELS) {
    const part = `${channel}_file`
    const file = form.files.find(f => f.field === part)
    if (!file) continue
    if (file.truncated) throw e.imageTooBig(part, IMAGE_LIMITS.fileBytes)
    if (file.bytes.length === 0) throw e.invalid(`${part} is empty`)
    const image = sniffImage(file.bytes)
    if (!image) throw e.invalid(`${part} is not a jpg or png image`)
    const name = file.filename.split(/[\\/]/).pop() || part
    files.push({ channel, fileName: name.slice(0, 255), bytes: file.bytes, ...image })
  }
  if (files.length === 0) throw e.missing('xiaomi_file or oppo_file')
  return { imageType, files }
}

const fileBody = (create: boolean) =>
  part({
    in: 'body',
    read: req => readFileBody(req, create),
    schema: z.object({
      ...(create
        ? { image_type: z.enum(['1', '2', '3']).describe('1 big picture, 2 large icon, 3 small icon.') }
        : {}),
      xiaomi_file: z
        .string()
        .meta({ contentMediaType: 'image/png' })
        .describe('Kept; Xiaomi no longer takes pushed images.')
        .optional(),
      oppo_file: z
        .string()
        .meta({ contentMediaType: 'image/png' })
        .describe('A PNG or JPEG of at most 2 MiB.')
        .optional(),
    }),
    errors: [
      ...(create ? [e.missing('image_type')] : []),
      e.invalid('the images must be sent as multipart/form-data'),
      e.invalid('the form cannot be read: Unexpected end of form'),
      ...(create ? [e.invalid('image_type is invalid: 1 big picture, 2 large icon, 3 small icon')] : []),
      e.imageTooBig('oppo_file', IMAGE_LIMITS.fileBytes),
      e.invalid('oppo_file is not a jpg or png image'),
      e.missing('xiaomi_file or oppo_file'),
    ],
    media: 'multipart/form-data',
    limit: IMAGE_LIMITS.bodyBytes,
  })

/** The channels OPPO's and Xiaomi's uploads feed: OPPO answers an id where it takes the type. */
function adoptFiles(type: ImageType, files: FileBody['files'], had: Record<string, ChannelImage> = {}) {
  const out = { ...had }
  for (const f of files)
    if (f.channel === 'oppo' && takes('oppo', type))
      out.oppo = { value: oppoId(), from: `file:${f.fileName}` }
  return out
}

const imageAnswer = z
  .object({
    media_id: z.string().describe('`jgmedia-<image_type>-<uuid>`: name it in a push (android.large_icon…).'),
    ...Object.fromEntries(URL_CHANNELS.map(c => [`${c}_image_url`, z.string().optional()])),
  })
  .describe('The media_id, and what each channel that takes the type adopted (OPPO: an id).')

/** The answer: media_id and each channel's adopted value, Xiaomi never (it stopped in 2023-08). */
function answerOf(image: PushImage): z.input<typeof imageAnswer> {
  const channels: Record<string, string> = {}
  for (const channel of URL_CHANNELS) {
    const adopted = image.channels[channel]
    if (adopted && channel !== 'xiaomi') channels[`${channel}_image_url`] = adopted.value
  }
  return { media_id: image.mediaId, ...channels }
}

const mediaParams = params({ media_id: text('A media_id of the app.') })
const unknown = e.unknownMedia('jgmedia-2-00000000-0000-0000-0000-000000000000')

export function imageRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store } = deps
  const KEPT =
    'Kept 30 days after its last change; the sandbox fetches no address (the control plane shows what was given).'

  /** A new image, within the app's bound of images kept; inside a write job. */
  const insertNew = (
    appKey: string,
    now: number,
    image: Omit<PushImage, 'appKey' | 'createdAt' | 'updatedAt' | 'expiresAt'>,
  ): PushImage => {
    if (store.pushImages.count(appKey, now) >= IMAGE_LIMITS.imagesPerApp)
      throw e.tooManyImages(IMAGE_LIMITS.imagesPerApp)
    const row = { ...image, appKey, createdAt: now, updatedAt: now, expiresAt: now + IMAGE_LIMITS.keptMs }
    store.pushImages.insert(row)
    return row
  }
  /** An image changed by `edit`, kept 30 days from now; inside a write job. */
  const change = (
    appKey: string,
    mediaId: string,
    now: number,
    edit: (had: PushImage) => Pick<PushImage, 'source' | 'imageUrl' | 'channels'>,
  ): PushImage => {
    const had = store.pushImages.get(appKey, mediaId, now)
    if (!had) throw e.unknownMedia(mediaId)
    const changed = { ...had, ...edit(had), updatedAt: now, expiresAt: now + IMAGE_LIMITS.keptMs }
    store.pushImages.update(changed)
    return changed
  }
  const KINDS = Object.entries(IMAGE_TYPES)
    .map(([n, name]) => `${n} ${name}`)
    .join(', ')

  return [
    vendorRoute({
      method: 'POST',
      url: '/images/byurls',
      summary: 'Add an image by address (docs/jpush-wire.md "Images")',
      description: `image_type (${KINDS}) and image_url and/or a channel's own address; each channel adopts what it takes for the type. ${KEPT}`,
      reads: { body: urlBody(true) },
      checks: [e.tooManyImages(IMAGE_LIMITS.imagesPerApp)],
      answer: imageAnswer,
      handler: async (req, { body }) => {
        const type = body.imageType!
        const channels = adopt(type, body, true)
        const now = req.tenant.now()
        const image = await store.write(() =>
          insertNew(req.tenant.app.appKey, now, {
            mediaId: newMediaId(type),
            imageType: type,
            source: 'url',
            imageUrl: body.imageUrl ?? null,
            channels,
          }),
        )
        return answerOf(image)
      },
    }),
    vendorRoute({
      method: 'PUT',
      url: '/images/byurls/:media_id',
      summary: 'Change the addresses of an image (docs/jpush-wire.md "Images")',
      description:
        'A channel not named keeps its address; one that does not take the image’s type keeps it too. ' +
        'image_url (the old Java client sends it) becomes the common address only.',
      reads: { params: mediaParams, body: urlBody(false) },
      checks: [unknown, wrongForm('huawei', 2)],
      answer: imageAnswer,
      handler: async (req, { params, body }) => {
        const { appKey } = req.tenant.app
        const now = req.tenant.now()
        const image = await store.write(() =>
          change(appKey, params.media_id, now, had => ({
            source: 'url',
            imageUrl: body.imageUrl ?? had.imageUrl,
            channels: adopt(had.imageType, body, false, had.channels),
          })),
        )
        return answerOf(image)
      },
    }),
    vendorRoute({
      method: 'POST',
      url: '/images/byfiles',
      summary: 'Add an image by uploading it, for OPPO and Xiaomi (docs/jpush-wire.md "Images")',
      description: `A multipart form: image_type (${KINDS}) and xiaomi_file and/or oppo_file, each a PNG or JPEG of at most 2 MiB. ${KEPT}`,
      reads: { body: fileBody(true) },
      checks: [e.tooManyImages(IMAGE_LIMITS.imagesPerApp)],
      answer: imageAnswer,
      handler: async (req, { body }) => {
        const type = body.imageType!
        const mediaId = newMediaId(type)
        const { appKey } = req.tenant.app
        const now = req.tenant.now()
        const image = await store.write(() => {
          const row = insertNew(appKey, now, {
            mediaId,
            imageType: type,
            source: 'file',
            imageUrl: null,
            channels: adoptFiles(type, body.files),
          })
          for (const f of body.files) store.pushImages.saveFile({ ...f, mediaId, uploadedAt: now })
          return row
        })
        return answerOf(image)
      },
    }),
    vendorRoute({
      method: 'PUT',
      url: '/images/byfiles/:media_id',
      summary: 'Upload new files for an image (docs/jpush-wire.md "Images")',
      description: 'xiaomi_file and/or oppo_file; each replaces that channel’s earlier file.',
      reads: { params: mediaParams, body: fileBody(false) },
      checks: [unknown],
      answer: imageAnswer,
      handler: async (req, { params, body }) => {
        const { appKey } = req.tenant.app
        const now = req.tenant.now()
        const image = await store.write(() => {
          const changed = change(appKey, params.media_id, now, had => ({
            source: 'file',
            imageUrl: had.imageUrl,
            channels: adoptFiles(had.imageType, body.files, had.channels),
          }))
          for (const f of body.files)
            store.pushImages.saveFile({ ...f, mediaId: changed.mediaId, uploadedAt: now })
          return changed
        })
        return answerOf(image)
      },
    }),
  ]
}
