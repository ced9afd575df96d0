import { channelFits, type PushPlatform, type VendorChannel } from '../../device.js'
import type { SeedCheck } from '../../seed/seed-file.js'
import { PUSH_LIMITS } from '../limits.js'
import { isValidTagOrAlias, isWellFormedRid } from '../values.js'

/**
 * The seed file's devices (`apps[].devices`) by the device API's rules: the seed file states their
 * shape (seed/seed-file.ts), the rules are this surface's, so app.ts hands this check to
 * readSeedFile and a device the API would refuse refuses the start, naming it, as any other
 * mistake of the file does. The app's device cap (MAX_DEVICES_PER_APP) bounds them too.
 */
export function seedDeviceProblems(maxDevicesPerApp: number): SeedCheck {
  return seed =>
    seed.apps.flatMap((a, i) => {
      const devices = a.devices ?? []
      const problems: Array<{ path: (string | number)[]; message: string }> = []
      const at = (j: number, ...rest: (string | number)[]) => ['apps', i, 'devices', j, ...rest]
      if (devices.length > maxDevicesPerApp)
        problems.push({
          path: ['apps', i, 'devices'],
          message: `holds ${devices.length} devices, more than MAX_DEVICES_PER_APP (${maxDevicesPerApp})`,
        })
      const seen = new Set<string>()
      const perAlias = new Map<string, number>()
      devices.forEach((d, j) => {
        if (!isWellFormedRid(d.registration_id))
          problems.push({ path: at(j, 'registration_id'), message: 'must be 1 to 64 letters or digits' })
        else if (seen.has(d.registration_id))
          problems.push({ path: at(j, 'registration_id'), message: 'is given twice' })
        seen.add(d.registration_id)
        if (d.alias !== null) {
          if (!isValidTagOrAlias(d.alias)) problems.push({ path: at(j, 'alias'), message: ALIAS_RULE })
          const bound = (perAlias.get(d.alias) ?? 0) + 1
          perAlias.set(d.alias, bound)
          if (bound === PUSH_LIMITS.devicesPerAlias + 1)
            problems.push({
              path: at(j, 'alias'),
              message: `"${d.alias}" is bound to more than ${PUSH_LIMITS.devicesPerAlias} devices`,
            })
        }
        d.tags.forEach((tag, k) => {
          if (!isValidTagOrAlias(tag)) problems.push({ path: at(j, 'tags', k), message: ALIAS_RULE })
        })
        if (new Set(d.tags).size > PUSH_LIMITS.tagsPerDevice)
          problems.push({ path: at(j, 'tags'), message: `more than ${PUSH_LIMITS.tagsPerDevice} tags` })
        const platform = d.platform as PushPlatform
        if (d.channel !== undefined && !channelFits(platform, d.channel as VendorChannel | null))
          problems.push({ path: at(j, 'channel'), message: `${d.channel} is not a channel of ${platform}` })
        if (d.apns_environment !== undefined && platform !== 'ios')
          problems.push({ path: at(j, 'apns_environment'), message: 'only an ios device has one' })
      })
      return problems
    })
}

const ALIAS_RULE = 'must be at most 40 bytes of letters, digits, Chinese characters, _@!#$&*+=.|￥'
