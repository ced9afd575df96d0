import { pushErrors } from '../errors.js'
import { isObject, type Json } from '../values.js'
import type { ImageType } from './table.js'

// Where a push names an image of the image API (docs/jpush-wire.md "Images"): the Android icons
// and big picture ("支持网络图片 URL、本地图片的 Path、极光 MediaID": cav android.go), the HarmonyOS
// large icon, and the same fields of each vendor channel in options.third_party_channel ("华为、荣耀
// 支持极光的 MediaID…": cav options.go). A value is a media_id when it reads as one; anything else
// is an address or a path, as before.

/** Each field that takes a media_id, and the image_type it must be. */
const FIELDS: Record<string, ImageType> = { big_pic_path: 1, large_icon: 2, small_icon_uri: 3 }

const MEDIA_ID = /^jgmedia-[123]-/

export interface MediaUse {
  /** Where the push names it, e.g. `notification.android.large_icon`. */
  field: string
  mediaId: string
  wanted: ImageType
}

function usesIn(object: unknown, path: string): MediaUse[] {
  if (!isObject(object)) return []
  return Object.entries(FIELDS).flatMap(([key, wanted]) => {
    const value = object[key]
    return typeof value === 'string' && MEDIA_ID.test(value)
      ? [{ field: `${path}.${key}`, mediaId: value, wanted }]
      : []
  })
}

/** Every media_id a push body names, with the type its field wants. */
export function mediaUses(body: Json): MediaUse[] {
  const notification = isObject(body.notification) ? body.notification : {}
  const options = isObject(body.options) ? body.options : {}
  const vendors = isObject(options.third_party_channel) ? options.third_party_channel : {}
  return [
    ...usesIn(notification.android, 'notification.android'),
    ...usesIn(notification.hmos, 'notification.hmos'),
    ...Object.entries(vendors).flatMap(([vendor, o]) => usesIn(o, `options.third_party_channel.${vendor}`)),
  ]
}

/**
 * Refuses a push whose media_ids the app does not have (1003), or that names an image of another
 * type than its field takes (a large icon as big_pic_path: 1003). `imageType` is the app's image
 * of that id still kept, or undefined.
 */
export function checkMedia(body: Json, imageType: (mediaId: string) => ImageType | undefined): void {
  for (const use of mediaUses(body)) {
    const type = imageType(use.mediaId)
    if (type === undefined) throw pushErrors.unknownMedia(use.mediaId)
    if (type !== use.wanted) throw pushErrors.wrongMediaType(use.field, use.wanted, type)
  }
}

/** What checkMedia refuses, for the document. */
export const mediaErrors = [
  pushErrors.unknownMedia('jgmedia-2-00000000-0000-0000-0000-000000000000'),
  pushErrors.wrongMediaType('notification.android.big_pic_path', 1, 2),
]
