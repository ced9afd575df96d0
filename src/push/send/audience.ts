import { z } from 'zod'
import type { Device, PushPlatform } from '../../device.js'
import { field } from '../../http/reads.js'
import { pushErrors } from '../errors.js'
import { PUSH_LIMITS } from '../limits.js'
import { isObject, isValidTagOrAlias, isWellFormedRid, stringArray } from '../values.js'

// The audience of a push (jpush-api.md §5.2): "all", or selectors combined with AND, each an OR
// of its values (tag_and: all of them; tag_not: none of them). Read from a push body, then
// resolved to the app's devices when the push is made.

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

export const invalidRid = (rid: string, more: readonly string[] = []) =>
  pushErrors.invalid(`The registration_id ${rid} is invalid!`).withIllegalRids([rid, ...more])

const selectors = z
  .object({
    tag: z.array(z.string()).max(PUSH_LIMITS.audienceTags),
    tag_and: z.array(z.string()).max(PUSH_LIMITS.audienceTags),
    tag_not: z.array(z.string()).max(PUSH_LIMITS.audienceTags),
    alias: z.array(z.string()).max(PUSH_LIMITS.audienceIds),
    registration_id: z.array(z.string()).max(PUSH_LIMITS.audienceIds),
    segment: z.array(z.string()).max(PUSH_LIMITS.audienceSegments),
    abtest: z.array(z.string()).max(PUSH_LIMITS.audienceSegments),
    live_activity_id: z.string(),
  })
  .partial()
  .describe('Selectors, ANDed between keys, ORed within one (jpush-api.md §5.2).')

/** A push's `audience`; a registration_id the app does not have is found when it is resolved. */
export const audience = field({
  read: parseAudience,
  schema: z.union([z.literal('all'), selectors]),
  errors: [
    pushErrors.missing('audience'),
    invalidRid('1a0018970a8b0fd6c0e_x'),
    pushErrors.invalid('audience has no target'),
  ],
})

/** Segment and A/B test ids come from the app's settings (seed file): id → registration_ids. */
export interface Groups {
  segments: Record<string, string[]>
  abtests: Record<string, string[]>
}

/** The app's devices, looked up the way an audience needs them (indexed, never all at once unless asked). */
export interface Registry {
  /** `withTags: false`: the devices' `tags` may be left empty. */
  all(withTags: boolean): Device[]
  get(rid: string): Device | undefined
  byAlias(alias: string): Device[]
  byTag(tag: string): Device[]
}

/**
 * The devices of the registry the audience reaches on the given platforms. A registration_id the
 * app never registered is an invalid value (1003), as the live service answers (java#165);
 * selectors that are valid but match nobody leave the list empty (the caller's 1011).
 * Selectors combine with AND: the candidates come from the narrowest positive selector through an
 * index (an alias among 100 000 devices is a few rows, not the registry), then every selector is
 * checked on them. Only "all" and a lone tag_not read the whole registry.
 */
export function resolveAudience(
  audience: Audience,
  platforms: readonly PushPlatform[],
  registry: Registry,
  groups: Groups,
): Device[] {
  if (audience === 'all') return registry.all(false).filter(d => platforms.includes(d.platform))
  const named = audience.registration_id?.map(rid => registry.get(rid))
  if (named?.includes(undefined)) {
    // Every rid the app does not have, in `illegal_rids` (what cav's decoders read).
    const [first, ...more] = audience.registration_id!.filter((_, i) => !named[i])
    throw invalidRid(first!, more)
  }
  if (audience.live_activity_id !== undefined) return [] // live activities are not routed to devices
  // Registration ids alone (most pushes): the named devices are the audience, nothing else to match.
  if (named && onlyRids(audience)) {
    const devices = named as Device[]
    if (devices.length === 1) return platforms.includes(devices[0]!.platform) ? devices : []
    return inRegistryOrder(unique(devices)).filter(d => platforms.includes(d.platform))
  }
  const segment = inGroups(audience.segment, groups.segments)
  const abtest = inGroups(audience.abtest, groups.abtests)
  const candidates =
    (named as Device[] | undefined) ??
    audience.alias?.flatMap(a => registry.byAlias(a)) ??
    (segment && lookUp(registry, segment)) ??
    (abtest && lookUp(registry, abtest)) ??
    audience.tag?.flatMap(t => registry.byTag(t)) ??
    (audience.tag_and && registry.byTag(audience.tag_and[0]!)) ??
    registry.all(true)
  // Sets, not the arrays: a file push (file-push.ts) names up to 100 000 aliases or ids.
  const sets: Lookups = {
    alias: audience.alias && new Set(audience.alias),
    rid: audience.registration_id && new Set(audience.registration_id),
    segment,
    abtest,
  }
  return inRegistryOrder(unique(candidates)).filter(
    d => platforms.includes(d.platform) && matches(audience, d, sets),
  )
}

/** Whether the audience names registration ids and nothing else. */
const onlyRids = (a: AudienceSelectors): boolean =>
  a.tag === undefined &&
  a.tag_and === undefined &&
  a.tag_not === undefined &&
  a.alias === undefined &&
  a.segment === undefined &&
  a.abtest === undefined

type Lookups = Record<'alias' | 'rid' | 'segment' | 'abtest', Set<string> | undefined>

/**
 * Whether one device is in the audience: what resolveAudience finds, asked of one device at a
 * time, for a push that goes through the registry in slices (push/send/delivery/slices.ts). A
 * registration_id the app does not have is simply nobody here (a file push's, already read).
 */
export function audienceTest(audience: Audience, groups: Groups): (d: Device) => boolean {
  if (audience === 'all') return () => true
  if (audience.live_activity_id !== undefined) return () => false
  const sets: Lookups = {
    alias: audience.alias && new Set(audience.alias),
    rid: audience.registration_id && new Set(audience.registration_id),
    segment: inGroups(audience.segment, groups.segments),
    abtest: inGroups(audience.abtest, groups.abtests),
  }
  return d => matches(audience, d, sets)
}

/** Whether the audience reads the devices' tags. */
export const readsTags = (audience: Audience): boolean =>
  audience !== 'all' && (!!audience.tag || !!audience.tag_and || !!audience.tag_not)

/**
 * At most how many devices the audience's narrowest selector can name (the candidates
 * resolveAudience reads through an index), or undefined when it is the registry itself (tag_not
 * alone, "all"). `tagged`: how many devices hold a tag (a count through its index).
 */
export function candidatesAtMost(
  audience: Audience,
  groups: Groups,
  tagged: (tags: readonly string[]) => number,
): number | undefined {
  if (audience === 'all') return undefined
  if (audience.live_activity_id !== undefined) return 0
  if (audience.registration_id) return audience.registration_id.length
  if (audience.alias) return audience.alias.length * PUSH_LIMITS.devicesPerAlias
  if (audience.segment) return inGroups(audience.segment, groups.segments)?.size
  if (audience.abtest) return inGroups(audience.abtest, groups.abtests)?.size
  if (audience.tag) return tagged(audience.tag)
  if (audience.tag_and) return tagged(audience.tag_and.slice(0, 1))
  return undefined
}

function matches(audience: AudienceSelectors, d: Device, sets: Lookups): boolean {
  // A device's tags are read only when a selector needs them (push-devices.ts).
  if (audience.tag || audience.tag_and || audience.tag_not) {
    const tags = new Set(d.tags)
    if (audience.tag && !audience.tag.some(t => tags.has(t))) return false
    if (audience.tag_and && !audience.tag_and.every(t => tags.has(t))) return false
    if (audience.tag_not?.some(t => tags.has(t))) return false
  }
  if (sets.alias && (d.alias === null || !sets.alias.has(d.alias))) return false
  if (sets.rid && !sets.rid.has(d.registrationId)) return false
  if (sets.segment && !sets.segment.has(d.registrationId)) return false
  if (sets.abtest && !sets.abtest.has(d.registrationId)) return false
  return true
}

function inGroups(ids: string[] | undefined, table: Record<string, string[]>): Set<string> | undefined {
  return ids && new Set(ids.flatMap(id => table[id] ?? []))
}

function lookUp(registry: Registry, rids: Set<string>): Device[] {
  return [...rids].flatMap(rid => registry.get(rid) ?? [])
}

function unique(devices: Device[]): Device[] {
  const seen = new Set<string>()
  return devices.filter(d => !seen.has(d.registrationId) && seen.add(d.registrationId))
}

/** The order of the registry (registration time), whatever selector found them. */
function inRegistryOrder(devices: Device[]): Device[] {
  return devices.sort((a, b) => a.createdAt - b.createdAt)
}

const NO_GROUPS: Groups = Object.freeze({ segments: {}, abtests: {} })

/** The app's groups as `audience` reads them: none unless it names a segment or an A/B test. */
export function groupsFor(audience: Audience, settings: Record<string, unknown>): Groups {
  return audience !== 'all' && (audience.segment !== undefined || audience.abtest !== undefined)
    ? groupsOf(settings)
    : NO_GROUPS
}

export function groupsOf(settings: Record<string, unknown>): Groups {
  const table = (v: unknown): Record<string, string[]> => {
    if (!isObject(v)) return {}
    return Object.fromEntries(Object.entries(v).map(([id, rids]) => [id, stringArray(rids) ?? []]))
  }
  return { segments: table(settings.segments), abtests: table(settings.abtests) }
}
