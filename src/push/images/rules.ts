import type { ApiError } from '../../errors.js'
import { pushErrors } from '../errors.js'
import type { ImageType } from './table.js'

// What the image API accepts, per vendor channel and image type: the table of the vendor's page
// (docs.jiguang.cn/jpush/server/push/rest_api_v3_image, "各通道支持及要求情况", 2024-08-13), in
// docs/jpush-wire.md "Images". A channel that does not take a type is "not processed": its field
// is left out of the answer, never an error. Xiaomi stopped taking pushed images in 2023-08, so
// its field is never answered. HarmonyOS (hmos, 2024-08-13) is not in the table: its notification
// has a large icon only (cav hmos.go), so it takes large icons, as http(s) addresses.

export const IMAGE_LIMITS = {
  /** "上传图片大小不超过 2M". */
  fileBytes: 2 * 1024 * 1024,
  /** The form: up to five files and image_type. */
  bodyBytes: 5 * 2 * 1024 * 1024 + 64 * 1024,
  /** "图片默认最多保存30天": from its last change. */
  keptMs: 30 * 86_400_000,
  /** The sandbox's: the longest address it keeps (a CDN URL is far shorter). */
  urlChars: 1000,
  /** The sandbox's bound on what one app keeps at once (docs/reliability.md). */
  imagesPerApp: 1000,
} as const

export const IMAGE_TYPES: Record<ImageType, string> = { 1: 'big picture', 2: 'large icon', 3: 'small icon' }

/** The channels of the byurls body, each as `<channel>_image_url`. */
export const URL_CHANNELS = ['jiguang', 'xiaomi', 'huawei', 'honor', 'oppo', 'fcm', 'hmos'] as const
export type Channel = (typeof URL_CHANNELS)[number]

/**
 * The file parts of byfiles: "该接口目前仅支持小米和 OPPO" (the old Java client also names huawei,
 * fcm and jiguang: parts the vendor ignores, and so does the sandbox).
 */
export const FILE_CHANNELS = ['xiaomi', 'oppo'] as const

type Form = 'http' | 'https' | 'sdcard' | 'drawable' | 'raw'

const HTTP: Form[] = ['http', 'https']

/** What each channel takes for each image type; absent: not processed. */
const SUPPORT: Record<Channel, Partial<Record<ImageType, Form[]>>> = {
  jiguang: { 1: [...HTTP, 'sdcard'], 2: [...HTTP, 'drawable'], 3: [...HTTP, 'drawable'] },
  xiaomi: {},
  oppo: { 1: HTTP, 2: HTTP },
  huawei: { 2: ['https'], 3: ['raw'] },
  honor: { 2: ['https'], 3: ['raw'] },
  fcm: { 1: [...HTTP, 'sdcard'], 2: [...HTTP, 'drawable'] },
  hmos: { 2: HTTP },
}

/** "以上都仅支持 jpg、jpeg 以及 png 格式的资源": a path that names its format names one of these. */
const IMAGE_SUFFIX = /\.(jpe?g|png)$/i
const ANY_SUFFIX = /\.[A-Za-z0-9]{1,5}$/

/** The form an address is in, or undefined when it is none the table names. */
function formOf(value: string): Form | undefined {
  if (/^https?:\/\//i.test(value)) {
    let url: URL
    try {
      url = new URL(value)
    } catch {
      return undefined
    }
    if (ANY_SUFFIX.test(url.pathname) && !IMAGE_SUFFIX.test(url.pathname)) return undefined
    return url.protocol === 'https:' ? 'https' : 'http'
  }
  // "/raw/ 开头的路径，无需指定文件后缀" (Huawei, Honor small icons).
  if (/^\/raw\/[A-Za-z0-9_]+$/.test(value)) return 'raw'
  // "位于drawable资源文件夹的图标路径，无需指定文件后缀": an Android resource name.
  if (/^[a-z][a-z0-9_]*$/.test(value)) return 'drawable'
  // "sdcard的相对路径，需要指定文件后缀".
  if (!value.startsWith('/') && !value.includes('..') && IMAGE_SUFFIX.test(value)) return 'sdcard'
  return undefined
}

const FORM_NAMES: Record<Form, string> = {
  http: 'an http:// address',
  https: 'an https:// address',
  sdcard: 'a path relative to the sdcard, with its .jpg/.jpeg/.png suffix',
  drawable: 'a drawable resource name, without suffix',
  raw: 'a /raw/ resource path, without suffix',
}

/** Whether the channel processes images of this type at all. */
export const takes = (channel: Channel, type: ImageType) => SUPPORT[channel][type] !== undefined

/** Whether the channel would adopt this address for this type (image_url's default applies only then). */
export function fits(channel: Channel, type: ImageType, value: string): boolean {
  const form = formOf(value)
  return form !== undefined && (SUPPORT[channel][type] ?? []).includes(form)
}

/** An address given for one channel in a form that channel does not take for the type: 1003. */
export function wrongForm(channel: Channel, type: ImageType): ApiError {
  const forms = (SUPPORT[channel][type] ?? []).map(f => FORM_NAMES[f]).join(' or ')
  return pushErrors.invalid(
    `${channel}_image_url is invalid: for a ${IMAGE_TYPES[type]} ${channel} takes ${forms}`,
  )
}

export interface SniffedImage {
  contentType: 'image/png' | 'image/jpeg'
  width: number | null
  height: number | null
}

/** The image's format and size in pixels from its bytes; undefined when it is no PNG or JPEG. */
export function sniffImage(bytes: Buffer): SniffedImage | undefined {
  if (bytes.length >= 24 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
    const ihdr = bytes.subarray(12, 16).toString('latin1') === 'IHDR'
    return {
      contentType: 'image/png',
      width: ihdr ? bytes.readUInt32BE(16) : null,
      height: ihdr ? bytes.readUInt32BE(20) : null,
    }
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return { contentType: 'image/jpeg', ...jpegSize(bytes) }
  }
  return undefined
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** A JPEG's size from its first start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC). */
function jpegSize(bytes: Buffer): { width: number | null; height: number | null } {
  let i = 2
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return { width: null, height: null }
    const marker = bytes[i + 1]!
    const length = bytes.readUInt16BE(i + 2)
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) }
    i += 2 + length
  }
  return { width: null, height: null }
}
