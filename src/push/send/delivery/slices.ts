import type { AudienceSubject } from '../../../advisor/audience.js'
import type { JobDeps, PipelineDeps } from '../../../deps.js'
import type { Device } from '../../../device.js'
import type { DueWork } from '../../../scheduler/due-work.js'
import { CLOSED_OFFSET } from '../../../store/apps/app-document.js'
import type { App } from '../../../store/apps/apps.js'
import type { Store } from '../../../store/index.js'
import type { Tenant } from '../../../tenancy.js'
import { isObject } from '../../values.js'
import { audienceTest, candidatesAtMost, groupsFor, groupsOf, readsTags } from '../audience.js'
import { type PushRequest, parsePush } from '../payload.js'
import { FAN_OUT_DUE, type FanOutPlan, type Push } from '../pushes-table.js'
import { deliveriesMade, pushAccepted, pushSucceeded } from './callbacks.js'
import type { Delivery } from './deliveries-table.js'
import {
  deliverEach,
  inRegistrySlices,
  keepDeliveries,
  reaches,
  routingOfPush,
  type Targets,
} from './fan-out.js'
import { type PlacedDevice, REGISTRY_START, type RegistryKey } from './fan-out-table.js'

// A push to a large audience, in slices (issue 19). One write job that went through 50 000 devices
// held the event loop for a second: every other tenant's request waited behind it. Such a push is
// accepted by one job (its checks, its msg_id, and its plan: how far its slices have gone), then
// its deliveries are written a slice of the registry at a time, each slice a write job of its own
// that stops once it has taken SLICE_BUDGET_MS of real time (at a page of PAGE devices), so that
// other requests run between them, however busy the machine.
//
// What the client sees: the answer once the push and its plan are durable (the job that accepts
// it commits them together), before any delivery is written, as JPush answers a push before its
// deliveries (a 200 000-device tag was answered after 8.1 s when the answer waited for every slice:
// docs/performance.md, "A shared sandbox as it fills"). What others see meanwhile: the push's
// deliveries appearing slice by slice (its events too). The slices are the due-work loop's
// (`dueFanOuts`), whoever planned them: /v3/push, a scheduled push's firing, or a process stopped
// half-way, whose plans the loop finds at the next start. Each slice writes its deliveries and
// moves the plan past them in one job, so a crash between two slices leaves the rest to write,
// exactly once: nothing acknowledged is lost. While other tenants write between the slices, the
// loop waits a slice's own time before the next one (SHARE_PAUSE), so that a fan-out does not take
// the whole event loop from their requests (issue 32): it goes on at half speed then, full speed alone.
//
// Which pushes: those whose candidates (resolveAudience's narrowest selector) could be more than a
// slice: the registry itself ("all", tag_not alone) when the app has more devices than a slice, a
// tag held by more, more registration_ids (a file push's), aliases or segment members than a slice
// can hold. The others are written by the same writeSlice, in the job that accepts them: a narrow
// audience as its one slice of resolved devices (fan-out.ts), "all" of a small registry as slices
// of the registry, the first in that job and the rest, should the registry have grown past a
// slice meanwhile, by the due-work loop. A test-mode push is never sliced.

/** A push whose candidates may be more than this many goes in slices (a job per ~10 ms). */
export const SLICED_ABOVE = 1000
/** Devices read from the registry at a time (one statement, their tags in one more). */
const PAGE = 100
/**
 * A page of a push whose deliveries are made row by row (a tag, an alias, a callback: not a
 * broadcast's INSERT … SELECT). The budget is looked at after each page, and 100 such devices took
 * 10–25 ms on a busy machine, two or three times SLICE_BUDGET_MS (issue 32): a quarter of it keeps
 * a slice near its budget.
 */
const ROW_PAGE = 25
/** Real time a slice's job goes on reading pages: then it commits and lets other requests run. */
const SLICE_BUDGET_MS = 8
/** Slices a scheduler tick writes before it lets the rest of the due work run. */
const SLICES_PER_TICK = 20
/**
 * While other jobs commit between a push's slices (other tenants' requests), the fan-out waits
 * this many times a slice's own time before the next one: it takes at most about half of the event
 * loop, the other half left to their requests (issue 32: with the slices back to back, the other
 * tenants' p99 was 2.5–4 times that just before). Alone, the slices go on at once.
 */
const SHARE_PAUSE = 1
/** Devices of the registry, from the first target on, a wide push's advisor sample is taken from. */
export const SAMPLE_DEVICES = 1000

/** Where a large push's first target is, found before the job that accepts it (read-only). */
export interface WideShape {
  wide: true
  /** Whether the audience reaches anybody (else the push is 1011, as any other). */
  found: boolean
  /** The slices start after this key (the slices before it reach nobody). */
  start: RegistryKey
  /** The registry's last device when the push was looked at. */
  end: RegistryKey | undefined
  /**
   * The first targets, up to SAMPLE_DEVICES of the registry from the first one: what the production
   * advisor reads of a push answered before its slices (advisor/audience.ts, docs/advisor.md).
   */
  sample: PlacedDevice[]
}
export type FanOutShape = { wide: false } | WideShape

/** Whether the push must go in slices (see above). */
export function isWide(store: Pick<Store, 'pushDevices'>, app: App, req: PushRequest): boolean {
  // A test-mode push reaches the app's test devices only, a few dozen at most.
  if (req.options.testModel) return false
  const groups = groupsFor(req.audience, app.settings)
  const most = candidatesAtMost(req.audience, groups, tags => store.pushDevices.tagged(app.appKey, tags))
  if (most !== undefined) return most > SLICED_ABOVE
  return store.pushDevices.count(app.appKey) > SLICED_ABOVE
}

/**
 * Whether a device of a slice is a target of the push: its platform reached, in the audience.
 * Made once per push (a file push's audience is a set of 100 000 ids), not once per slice.
 */
function targetTest(req: PushRequest, app: App): (d: PlacedDevice) => boolean {
  const known = tests.get(req)
  if (known) return known
  const inAudience = audienceTest(req.audience, groupsOf(app.settings))
  const test = (d: PlacedDevice) =>
    req.platforms.includes(d.platform) && reaches(req, d.platform) && inAudience(d)
  tests.set(req, test)
  return test
}
const tests = new WeakMap<PushRequest, (d: PlacedDevice) => boolean>()

/**
 * The first slice of the registry with a target in it, one page per call of `step`; then, when
 * `sampled`, the targets of the next pages up to SAMPLE_DEVICES devices (the advisor's sample).
 */
function* firstTarget(
  store: Store,
  app: App,
  req: PushRequest,
  sampled: boolean,
): Generator<void, WideShape> {
  const appKey = app.appKey
  const end = store.pushFanOut.last(appKey)
  const test = targetTest(req, app)
  const tags = readsTags(req.audience)
  let start = REGISTRY_START
  while (end) {
    const slice = store.pushFanOut.slice(appKey, start, end, PAGE, tags)
    if (slice.some(test)) {
      const sample = slice.filter(test)
      let after = slice.length === PAGE ? slice.at(-1)!.key : undefined
      for (let read = slice.length; sampled && after && read < SAMPLE_DEVICES; read += PAGE) {
        yield
        const next = store.pushFanOut.slice(appKey, after, end, PAGE, tags)
        sample.push(...next.filter(test))
        after = next.length === PAGE ? next.at(-1)!.key : undefined
      }
      return { wide: true, found: true, start, end, sample }
    }
    if (slice.length < PAGE) break
    start = slice.at(-1)!.key
    yield
  }
  return { wide: true, found: false, start, end, sample: [] }
}

/** Looks for the first target synchronously (inside a write job: a scheduled push's firing). */
export function wideShape(store: Store, app: App, req: PushRequest): WideShape {
  const search = firstTarget(store, app, req, false)
  for (;;) {
    const step = search.next()
    if (step.done) return step.value
  }
}

/** Looks for the first target a slice at a time, letting other requests run between slices. */
export async function wideShapeInTurns(store: Store, app: App, req: PushRequest): Promise<WideShape> {
  const search = firstTarget(store, app, req, true)
  for (;;) {
    const step = search.next()
    if (step.done) return step.value
    await new Promise(resolve => setImmediate(resolve))
  }
}

/** A push as its slices write it: the accepting job's values, or its row's. */
export interface SlicedPush {
  msgId: string
  sendno: string
  /** The push's time: a slice written later is the same push, its deliveries of that time. */
  createdAt: number
}

/** Where a slice's devices come from. */
export type SliceSource =
  /** A narrow audience's resolved devices (fan-out.ts): one slice, all of them. */
  | { devices: readonly Device[] }
  /** The registry after `after` and up to `end`, at most PUSH_SLICE_DEVICES of it (and SLICE_BUDGET_MS). */
  | FanOutPlan

/**
 * Every push's deliveries start here, inside the job that accepts it (after its row is inserted):
 * a narrow audience or a small registry has its first slice written at once; what is left (a wide
 * push's every slice) is its plan, due at once for the due-work loop, committed with the push so
 * that a process killed half-way resumes it after a restart. `audience`: kept beside the payload
 * when the payload does not say it (a file push's `{"file":…}`).
 */
export function startFanOut(
  deps: PipelineDeps,
  app: App,
  push: SlicedPush,
  req: PushRequest,
  targets: Targets | WideShape,
): void {
  let rest: FanOutPlan | undefined
  if ('wide' in targets) rest = targets.end && { after: targets.start, end: targets.end }
  else {
    const end = targets.devices ? undefined : deps.store.pushFanOut.last(app.appKey)
    const source: SliceSource | undefined = targets.devices
      ? { devices: targets.devices }
      : end && { after: REGISTRY_START, end }
    if (source) rest = writeSlice(deps, app, push, req, source, { first: true, seen: targets.seen })
  }
  if (!rest) return
  const fromFile = isObject(req.body.audience) && 'file' in req.body.audience
  deps.store.pushes.sliceFanOut({ appKey: app.appKey, ...push }, rest, fromFile ? req.audience : undefined)
}

/**
 * Writes one slice of a push's deliveries, inside a write job: the one path every delivery takes.
 * Returns where the next slice starts, or undefined once every delivery is written. `first`: the
 * slice the accepting job writes (its callbacks as one: push succeeded, then the deliveries);
 * `seen`: where the vendors' quotas it took or found used up are told to the advisor.
 */
export function writeSlice(
  deps: PipelineDeps,
  app: App,
  push: SlicedPush,
  req: PushRequest,
  source: SliceSource,
  { first = false, seen }: { first?: boolean; seen?: AudienceSubject } = {},
): FanOutPlan | undefined {
  const { store } = deps
  const { msgId, createdAt: now } = push
  const tenant: Tenant = { app, now: () => now }
  const calling = { msgId, sendno: push.sendno, callback: req.callback }
  let made: Delivery[]
  let written = 0
  let next: RegistryKey | undefined
  if ('devices' in source) {
    made = deliverEach(deps, tenant, req, source.devices, msgId, now, seen)
    written = source.devices.length
  } else {
    made = []
    // A broadcast's page: one INSERT … SELECT. A push with a callback reads its rows: row by row.
    const setBased = inRegistrySlices(app, req) && req.callback === undefined
    const platforms = req.platforms.filter(p => reaches(req, p))
    const isTarget = targetTest(req, app)
    const tags = readsTags(req.audience)
    const started = performance.now()
    // PUSH_SLICE_DEVICES: the registry's devices a slice goes through at most (tests set a few).
    // The accepting job's slice of a small registry: one page of it (SLICED_ABOVE devices, should
    // it have grown since it was counted, the rest goes in the loop's slices).
    let left = first ? SLICED_ABOVE + 1 : deps.config.pushSliceDevices
    next = source.after
    while (next && left > 0) {
      const limit = first ? left : Math.min(setBased ? PAGE : ROW_PAGE, left)
      left -= limit
      const page = { after: next, end: source.end, limit }
      if (setBased) {
        written += store.pushFanOut.insertSlice(
          { msgId, appKey: app.appKey, now, ttl: req.options.timeToLive },
          platforms,
          page,
          routingOfPush(req),
        )
        next = store.pushFanOut.sliceEnd(app.appKey, next, source.end, limit)
      } else {
        const devices = store.pushFanOut.slice(app.appKey, next, source.end, limit, tags)
        const targets = devices.filter(isTarget)
        made.push(...deliverEach(deps, tenant, req, targets, msgId, now, seen))
        written += targets.length
        next = devices.length === limit ? devices.at(-1)!.key : undefined
      }
      if (performance.now() - started >= SLICE_BUDGET_MS) break
    }
  }
  if (!next && first) pushAccepted(deps, app, calling, made, now)
  else {
    deliveriesMade(deps, app, calling, made, now)
    if (!next && req.callback)
      pushSucceeded(deps, app, calling, store.pushDeliveries.countOf(app.appKey, msgId), now)
  }
  keepDeliveries(deps, app.appKey, msgId, written)
  return next && { after: next, end: (source as FanOutPlan).end }
}

/**
 * Writes the next slice of a planned push (the due-work loop's); inside a write job. Returns true
 * once every slice is written (or there is nothing left to write: the push withdrawn, gone with
 * its app's reset).
 */
export function writePlannedSlice(deps: PipelineDeps, appKey: string, msgId: string): boolean {
  const { store } = deps
  const push = store.pushes.get(appKey, msgId)
  const plan = push?.fanOut
  if (!push || !plan) return true
  const app = store.apps.get(appKey)
  // A withdrawn push reaches nobody more.
  const next =
    app && push.withdrawnAt == null ? writeSlice(deps, app, push, requestOf(store, push), plan) : undefined
  store.pushes.fanOutAt(appKey, msgId, next ?? null)
  if (!next) requests.get(store)?.delete(msgId)
  return !next
}

/** Pushes read again from their row to resume their slices, kept until their last one. */
const requests = new WeakMap<Store, Map<string, PushRequest>>()

function requestOf(store: Store, push: Push): PushRequest {
  let known = requests.get(store)
  if (!known) {
    known = new Map()
    requests.set(store, known)
  }
  let req = known.get(push.msgId)
  if (!req) {
    const audience = store.pushes.fanOutAudience(push.appKey, push.msgId)
    req = parsePush(
      push.payload,
      push.appKey,
      audience === undefined ? undefined : () => audience as PushRequest['audience'],
    )
    known.set(push.msgId, req)
  }
  return req
}

/**
 * Every planned push's slices: a push just answered, a scheduled push's (its firing plans them), or
 * those a stopped process left (after a restart). A tick writes at most SLICES_PER_TICK of them,
 * each a write job of its own (other requests' jobs run between), then the rest of the due work
 * runs; the pushes stay due until their last slice.
 */
export const dueFanOuts: DueWork<JobDeps> = {
  name: 'fan-out',
  nextDue: [FAN_OUT_DUE],
  run: async deps => {
    const { store } = deps
    let budget = SLICES_PER_TICK
    for (const { appKey, msgId } of store.pushes.fanningOut()) {
      // An app whose import is being written waits (store/apps/app-document.ts: CLOSED_OFFSET).
      if (store.apps.get(appKey)?.clockOffsetMs === CLOSED_OFFSET) continue
      while (budget > 0) {
        budget--
        // A turn of the event loop between slices: requests that arrived meanwhile (other apps')
        // are read and their jobs queued before the next slice's, so they commit with it or first.
        await new Promise(resolve => setImmediate(resolve))
        const before = store.committed()
        let took = 0
        try {
          const done = await store.write(() => {
            const started = performance.now()
            try {
              return writePlannedSlice(deps, appKey, msgId)
            } finally {
              took = performance.now() - started
            }
          })
          if (done) break
          // Others wrote meanwhile (its own job is one): leave them the event loop for a while.
          if (store.committed() - before > 1)
            await new Promise(resolve => setTimeout(resolve, took * SHARE_PAUSE))
        } catch (err) {
          // A push whose slices cannot be written (a database edited by hand) stops alone:
          // logged with its app, its plan dropped; every other push goes on.
          store.health.observe(err)
          deps.log.error({ err, app_key: appKey, msg_id: msgId }, 'push fan-out failed; it stops here')
          await store.write(() => store.pushes.fanOutAt(appKey, msgId, null)).catch(() => {})
          break
        }
      }
      if (budget === 0) return
    }
  },
}
