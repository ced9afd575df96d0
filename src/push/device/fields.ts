import type { Store } from '../../store/index.js'
import type { Device, PushPlatform } from '../../store/push/devices.js'
import { deviceErrors } from '../errors.js'
import { PUSH_LIMITS } from '../limits.js'
import { NOTIFICATION_PLATFORMS } from '../send/notification.js'
import { byteLength, isObject, isValidTagOrAlias, isWellFormedRid, stringArray } from '../values.js'

// Readers for the device host (jpush-api.md §7): everything malformed is 7002, a rid the app
// does not have in a list is 7013, an alias already on 10 devices is 7015.

export function readDeviceBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {}
  if (!isObject(body)) throw deviceErrors.invalid('The request body must be a JSON object')
  return body
}

export function readDeviceTag(value: string): string {
  if (!isValidTagOrAlias(value)) throw deviceErrors.invalid(`tag '${value}' is invalid`)
  return value
}

export function readAlias(value: string): string {
  if (!isValidTagOrAlias(value)) throw deviceErrors.invalid(`alias '${value}' is invalid`)
  return value
}

/** A device of the app named in the path; 7002 when the app has none by that id. */
export function requireDevice(store: Store, appKey: string, rid: string): Device {
  const device = isWellFormedRid(rid) ? store.pushDevices.get(appKey, rid) : undefined
  if (!device) throw deviceErrors.invalid(`registration_id '${rid}' is invalid`)
  return device
}

/** `?platform=android,ios`: absent means every platform; an empty value is refused (cav v1.0.3). */
export function readPlatforms(value: string | undefined): PushPlatform[] {
  if (value === undefined) return [...NOTIFICATION_PLATFORMS]
  const list = value.split(',').map(p => p.trim())
  if (list.some(p => !(NOTIFICATION_PLATFORMS as readonly string[]).includes(p))) {
    throw deviceErrors.invalid(`platform '${value}' is invalid`)
  }
  return list as PushPlatform[]
}

/** `{"add":[…],"remove":[…]}` of tags: ≤ 100 each and ≤ 1000 bytes in total. */
export function readTagChanges(value: unknown): { add: string[]; remove: string[] } {
  if (!isObject(value)) throw deviceErrors.invalid('tags must be "" or {"add":[…],"remove":[…]}')
  const part = (key: 'add' | 'remove') => {
    if (value[key] === undefined || value[key] === null) return []
    const list = stringArray(value[key])
    if (!list) throw deviceErrors.invalid(`tags.${key} must be an array`)
    if (list.length > PUSH_LIMITS.tagsPerOperation)
      throw deviceErrors.invalid(`tags.${key} has more than 100 tags`)
    return list.map(readDeviceTag)
  }
  const add = part('add')
  const remove = part('remove')
  const bytes = [...add, ...remove].reduce((n, t) => n + byteLength(t), 0)
  if (bytes > PUSH_LIMITS.tagBytesPerOperation)
    throw deviceErrors.invalid('tags exceed 1000 bytes in one operation')
  return { add, remove }
}

/** `{"registration_ids":{"add":[…],"remove":[…]}}`, ≤ 1000 each, every rid a device of the app. */
export function readRidChanges(
  store: Store,
  appKey: string,
  body: Record<string, unknown>,
  allowed: ReadonlyArray<'add' | 'remove'>,
): { add: string[]; remove: string[] } {
  const ids = body.registration_ids
  if (!isObject(ids)) throw deviceErrors.invalid('registration_ids must be an object')
  const part = (key: 'add' | 'remove') => {
    if (!allowed.includes(key) || ids[key] === undefined || ids[key] === null) return []
    const list = stringArray(ids[key])
    if (!list) throw deviceErrors.invalid(`registration_ids.${key} must be an array`)
    if (list.length > PUSH_LIMITS.ridsPerOperation)
      throw deviceErrors.invalid(`registration_ids.${key} has too many ids`)
    return [...new Set(list)]
  }
  const add = part('add')
  const remove = part('remove')
  if (add.length === 0 && remove.length === 0)
    throw deviceErrors.invalid('registration_ids has nothing to add or remove')
  const unknown = [...add, ...remove].filter(
    rid => !isWellFormedRid(rid) || !store.pushDevices.get(appKey, rid),
  )
  if (unknown.length > 0) throw deviceErrors.someInvalid(unknown)
  return { add, remove }
}

/** Binds a device to an alias, unless 10 other devices already hold it (7015, notice197). */
export function bindAlias(store: Store, appKey: string, rid: string, alias: string): void {
  const holders = store.pushDevices.byAlias(appKey, alias).filter(d => d.registrationId !== rid)
  if (holders.length >= PUSH_LIMITS.devicesPerAlias) throw deviceErrors.aliasFull()
  store.pushDevices.setAlias(appKey, rid, alias)
}

/** Adds tags to a device, keeping it at ≤ 1000 tags (7002). */
export function addTags(store: Store, device: Device, tags: string[]): void {
  const after = new Set([...device.tags, ...tags])
  if (after.size > PUSH_LIMITS.tagsPerDevice)
    throw deviceErrors.invalid('a device may carry at most 1000 tags')
  store.pushDevices.addTags(device.appKey, device.registrationId, tags)
}
