import { z } from 'zod'
import type { Device, PushPlatform } from '../../device.js'
import { firstValue } from '../../http/body/query.js'
import { field, type ObjectReader, part, text } from '../../http/reads.js'
import type { Store } from '../../store/index.js'
import { deviceErrors as e } from '../errors.js'
import { PUSH_LIMITS } from '../limits.js'
import { NOTIFICATION_PLATFORMS } from '../send/index.js'
import {
  byteLength,
  isObject,
  isValidTagOrAlias,
  isWellFormedRid,
  scalarText,
  stringArray,
} from '../values.js'

// What the device host reads (jpush-api.md §7): everything malformed is 7002, a rid the app does
// not have in a list is 7013, an alias already on 10 devices is 7015. Each field is declared with
// what the document shows of it and what it refuses.

/** A body is an object, or none at all (read as `{}`). */
export const deviceObject: ObjectReader = {
  read(body) {
    if (body === undefined || body === null) return {}
    if (!isObject(body)) throw e.invalid('The request body must be a JSON object')
    return body
  },
  errors: [e.invalid('The request body must be a JSON object')],
}

export const rid = text('A registration_id of the app.')
/** The path's registration_id, when it is no device of the app. */
export const badRid = e.invalid("registration_id '1a0018970a8b0fd6c0e_x' is invalid")

export function readDeviceTag(value: string): string {
  if (!isValidTagOrAlias(value)) throw e.invalid(`tag '${value}' is invalid`)
  return value
}

export function readAlias(value: string): string {
  if (!isValidTagOrAlias(value)) throw e.invalid(`alias '${value}' is invalid`)
  return value
}

// Path segments are text; String() only guards the reader against anything else.
export const tag = field({
  read: value => readDeviceTag(String(value)),
  schema: z.string(),
  errors: [e.invalid("tag 'a b' is invalid")],
})

export const alias = field({
  read: value => readAlias(String(value)),
  schema: z.string(),
  errors: [e.invalid("alias 'a b' is invalid")],
})

/** `?platform=android,ios`: absent means every platform; an empty value is refused (cav v1.0.3). */
export const platforms = field({
  read(value): PushPlatform[] {
    const given = firstValue(value)
    if (given === undefined) return [...NOTIFICATION_PLATFORMS]
    const list = given.split(',').map(p => p.trim())
    if (list.some(p => !(NOTIFICATION_PLATFORMS as readonly string[]).includes(p))) {
      throw e.invalid(`platform '${given}' is invalid`)
    }
    return list as PushPlatform[]
  },
  schema: z.string().describe('Comma-separated: android, ios, hmos…; absent: every platform.').optional(),
  errors: [e.invalid("platform 'x' is invalid")],
})

/** A device of the app named in the path; 7002 when the app has none by that id. */
export function requireDevice(store: Store, appKey: string, registrationId: string): Device {
  const device = isWellFormedRid(registrationId) ? store.pushDevices.get(appKey, registrationId) : undefined
  if (!device) throw e.invalid(`registration_id '${registrationId}' is invalid`)
  return device
}

/** `{"add":[…],"remove":[…]}` of tags: ≤ 100 each and ≤ 1000 bytes in total. */
export function readTagChanges(value: unknown): { add: string[]; remove: string[] } {
  if (!isObject(value)) throw e.invalid('tags must be "" or {"add":[…],"remove":[…]}')
  const part = (key: 'add' | 'remove') => {
    if (value[key] === undefined || value[key] === null) return []
    const list = stringArray(value[key])
    if (!list) throw e.invalid(`tags.${key} must be an array`)
    if (list.length > PUSH_LIMITS.tagsPerOperation) throw e.invalid(`tags.${key} has more than 100 tags`)
    return list.map(readDeviceTag)
  }
  const add = part('add')
  const remove = part('remove')
  const bytes = [...add, ...remove].reduce((n, t) => n + byteLength(t), 0)
  if (bytes > PUSH_LIMITS.tagBytesPerOperation) throw e.invalid('tags exceed 1000 bytes in one operation')
  return { add, remove }
}

/** A device's tags: `""` clears them, `{add, remove}` changes them, absent leaves them. */
export const tagChanges = field({
  read(value): '' | undefined | null | { add: string[]; remove: string[] } {
    if (value === '' || value === undefined || value === null) return value
    return readTagChanges(value)
  },
  schema: z
    .union([z.literal(''), z.object({ add: z.array(z.string()), remove: z.array(z.string()) }).partial()])
    .describe('"" clears them; at most 100 tags and 1000 bytes per operation.')
    .optional(),
  errors: [
    e.invalid('tags must be "" or {"add":[…],"remove":[…]}'),
    e.invalid('tags.add must be an array'),
    e.invalid('tags.add has more than 100 tags'),
    e.invalid("tag 'a b' is invalid"),
    e.invalid('tags exceed 1000 bytes in one operation'),
  ],
})

/** A device's alias: `""` removes it; its characters are checked as it is bound. */
export const aliasChange = field({
  read(value): unknown {
    if (value !== undefined && value !== null && value !== '' && typeof value !== 'string')
      throw e.invalid('alias must be a string')
    return value
  },
  schema: z.string().describe('"" removes it; at most 10 devices per alias (7015).').optional(),
  errors: [e.invalid('alias must be a string')],
})

const MOBILE = /^\+?\d{5,20}$/

/** A device's mobile, for SMS fallback: `""` clears it. */
export const mobileChange = field({
  read(value): string | undefined {
    const mobile = value === undefined || value === null ? undefined : scalarText(value)
    if (mobile === undefined ? value != null : mobile !== '' && !MOBILE.test(mobile))
      throw e.invalid('mobile is invalid')
    return mobile
  },
  schema: z.string().describe('"" clears it.').optional(),
  errors: [e.invalid('mobile is invalid')],
})

type Changes = { add: string[]; remove: string[] }
const idChanges = z
  .object({
    add: z.array(z.string()).max(PUSH_LIMITS.ridsPerOperation).optional(),
    remove: z.array(z.string()).max(PUSH_LIMITS.ridsPerOperation).optional(),
  })
  .describe('registration_ids to add and remove (at least one).')

/**
 * `{"registration_ids":{"add":[…],"remove":[…]}}`, ≤ 1000 each, every rid a device of the app:
 * read inside the write that changes them, where `known` tells the app's devices.
 */
export const ridChanges = (allowed: ReadonlyArray<'add' | 'remove'>) =>
  part({
    in: 'body',
    read(req, known: (registrationId: string) => boolean): Changes {
      const ids = deviceObject.read(req.body).registration_ids
      if (!isObject(ids)) throw e.invalid('registration_ids must be an object')
      const list = (key: 'add' | 'remove') => {
        if (!allowed.includes(key) || ids[key] === undefined || ids[key] === null) return []
        const values = stringArray(ids[key])
        if (!values) throw e.invalid(`registration_ids.${key} must be an array`)
        if (values.length > PUSH_LIMITS.ridsPerOperation)
          throw e.invalid(`registration_ids.${key} has too many ids`)
        return [...new Set(values)]
      }
      const add = list('add')
      const remove = list('remove')
      if (add.length === 0 && remove.length === 0)
        throw e.invalid('registration_ids has nothing to add or remove')
      const unknown = [...add, ...remove].filter(id => !isWellFormedRid(id) || !known(id))
      if (unknown.length > 0) throw e.someInvalid(unknown)
      return { add, remove }
    },
    schema: z.object({
      registration_ids: allowed.includes('add') ? idChanges : idChanges.pick({ remove: true }),
    }),
    errors: [
      e.invalid('registration_ids must be an object'),
      e.invalid('registration_ids has nothing to add or remove'),
      e.someInvalid(['1a0018970a8b0fd6c0e_x']),
    ],
  })

/** Binds a device to an alias, unless 10 other devices already hold it (7015, notice197). */
export function bindAlias(store: Store, appKey: string, registrationId: string, name: string): void {
  const holders = store.pushDevices.byAlias(appKey, name).filter(d => d.registrationId !== registrationId)
  if (holders.length >= PUSH_LIMITS.devicesPerAlias)
    throw e
      .aliasFull()
      .because(
        `alias "${name}" is bound to ${holders.length} other devices (${PUSH_LIMITS.devicesPerAlias} at most)`,
      )
  store.pushDevices.setAlias(appKey, registrationId, name)
}

export const tagLimit = () => e.invalid('a device may carry at most 1000 tags')

/** Adds tags to a device, keeping it at ≤ 1000 tags (7002). */
export function addTags(store: Store, device: Device, tags: string[]): void {
  const after = new Set([...device.tags, ...tags])
  if (after.size > PUSH_LIMITS.tagsPerDevice)
    throw tagLimit().because(`device ${device.registrationId} would carry ${after.size} tags`)
  store.pushDevices.addTags(device.appKey, device.registrationId, tags)
}
