import { pushErrors } from '../errors.js'
import { PUSH_LIMITS } from '../limits.js'
import { isObject, isValidTagOrAlias, isWellFormedRid, stringArray } from '../values.js'

// The audience of a push (jpush-api.md §5.2): "all", or selectors combined with AND, each an OR
// of its values (tag_and: all of them; tag_not: none of them).

export interface AudienceSelectors {
  tag?: string[]
  tag_and?: string[]
  tag_not?: string[]
  alias?: string[]
  registration_id?: string[]
  segment?: string[]
  abtest?: string[]
  live_activity_id?: string
}

export type Audience = 'all' | AudienceSelectors

const ARRAY_KEYS = {
  tag: PUSH_LIMITS.audienceTags,
  tag_and: PUSH_LIMITS.audienceTags,
  tag_not: PUSH_LIMITS.audienceTags,
  alias: PUSH_LIMITS.audienceIds,
  registration_id: PUSH_LIMITS.audienceIds,
  segment: PUSH_LIMITS.audienceSegments,
  abtest: PUSH_LIMITS.audienceSegments,
} as const

type ArrayKey = keyof typeof ARRAY_KEYS

/** 1002 when absent; 1003 for anything malformed, an empty value, or a limit exceeded. */
export function parseAudience(value: unknown): Audience {
  if (value === undefined || value === null) throw pushErrors.missing('audience')
  if (typeof value === 'string') {
    if (value === 'all') return 'all'
    throw pushErrors.invalid(`audience value '${value}' is invalid`)
  }
  if (!isObject(value)) throw pushErrors.invalid('audience must be "all" or an object')
  const out: AudienceSelectors = {}
  for (const [key, raw] of Object.entries(value)) {
    if (key === 'live_activity_id') {
      if (typeof raw !== 'string' || raw === '')
        throw pushErrors.invalid('audience.live_activity_id is invalid')
      out.live_activity_id = raw
      continue
    }
    if (!(key in ARRAY_KEYS)) throw pushErrors.invalid(`audience key '${key}' is not supported`)
    const values = stringArray(raw)
    if (!values) throw pushErrors.invalid(`audience.${key} must be an array of strings`)
    if (values.length === 0) continue // an empty array means the key is absent
    if (values.length > ARRAY_KEYS[key as ArrayKey])
      throw pushErrors.invalid(`audience.${key} has too many values`)
    for (const v of values) checkValue(key as ArrayKey, v)
    out[key as ArrayKey] = [...new Set(values)]
  }
  if (Object.keys(out).length === 0) throw pushErrors.invalid('audience has no target')
  return out
}

function checkValue(key: ArrayKey, v: string): void {
  if (v === '') throw pushErrors.invalid(`audience.${key} contains an empty value`)
  if (key === 'registration_id') {
    if (!isWellFormedRid(v)) throw invalidRid(v)
  } else if (key !== 'segment' && key !== 'abtest' && !isValidTagOrAlias(v)) {
    throw pushErrors.invalid(`audience.${key} value '${v}' is invalid`)
  }
}

export const invalidRid = (rid: string) => pushErrors.invalid(`The registration_id ${rid} is invalid!`)
