import type { JobDeps, PipelineDeps } from '../../deps.js'
import type { DueWork } from '../../scheduler/due-work.js'
import { CLOSED_OFFSET } from '../../store/apps/app-document.js'
import type { App } from '../../store/apps/apps.js'
import type { Store } from '../../store/index.js'
import type { Delivery } from '../../store/push/deliveries.js'
import { type PlacedDevice, REGISTRY_START, type RegistryKey } from '../../store/push/fan-out.js'
import { FAN_OUT_DUE, type Push } from '../../store/push/pushes.js'
import type { Tenant } from '../../tenancy.js'
import { audienceTest, candidatesAtMost, groupsOf, readsTags } from '../send/audience.js'
import { type PushRequest, parsePush } from '../send/payload.js'
import { isObject } from '../values.js'
import { deliveriesMade, pushSucceeded } from './callbacks.js'
import { deliverEach, keepDeliveries, reaches, routingOfPush } from './fan-out.js'
import { hasFiniteQuota } from './route.js'

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
// exactly once: nothing acknowledged is lost.
//
// Which pushes: those whose candidates (resolveAudience's narrowest selector) could be more than a
// slice: the registry itself ("all", tag_not alone) when the app has more devices than a slice, a
// tag held by more, more registration_ids (a file push's), aliases or segment members than a slice
// can hold. The others go as before, in the one job that accepts them.

/** A push whose candidates may be more than this many goes in slices (a job per ~10 ms). */
export const SLICED_ABOVE = 1000
/** Devices read from the registry at a time (one statement, their tags in one more). */
const PAGE = 100
/** Real time a slice's job goes on reading pages: then it commits and lets other requests run. */
const SLICE_BUDGET_MS = 8
/** Slices a scheduler tick writes before it lets the rest of the due work run. */
const SLICES_PER_TICK = 20

/** Where a large push's first target is, found before the job that accepts it (read-only). */
export interface WideShape {
  wide: true
  /** Whether the audience reaches anybody (else the push is 1011, as any other). */
  found: boolean
  /** The slices start after this key (the slices before it reach nobody). */
  start: RegistryKey
  /** The registry's last device when the push was looked at. */
  end: RegistryKey | undefined
}
export type FanOutShape = { wide: false } | WideShape

/** Whether the push must go in slices (see above). */
export function isWide(store: Pick<Store, 'pushDevices'>, app: App, req: PushRequest): boolean {
  // A test-mode push reaches the app's test devices only, a few dozen at most.
  if (req.options.testModel) return false
  const groups = groupsOf(app.settings)
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

/** The first slice of the registry with a target in it, one slice per call of `step`. */
function* firstTarget(store: Store, app: App, req: PushRequest): Generator<void, WideShape> {
  const appKey = app.appKey
  const end = store.pushFanOut.last(appKey)
  const test = targetTest(req, app)
  const tags = readsTags(req.audience)
  let start = REGISTRY_START
  while (end) {
    const slice = store.pushFanOut.slice(appKey, start, end, PAGE, tags)
    if (slice.some(test)) return { wide: true, found: true, start, end }
    if (slice.length < PAGE) break
    start = slice.at(-1)!.key
    yield
  }
  return { wide: true, found: false, start, end }
}

/** Looks for the first target synchronously (inside a write job: a scheduled push's firing). */
export function wideShape(store: Store, app: App, req: PushRequest): WideShape {
  const search = firstTarget(store, app, req)
  for (;;) {
    const step = search.next()
    if (step.done) return step.value
  }
}

/** Looks for the first target a slice at a time, letting other requests run between slices. */
export async function wideShapeInTurns(store: Store, app: App, req: PushRequest): Promise<WideShape> {
  const search = firstTarget(store, app, req)
  for (;;) {
    const step = search.next()
    if (step.done) return step.value
    await new Promise(resolve => setImmediate(resolve))
  }
}

/**
 * The plan of a large push, written with it (inside the job that accepts it). `audience`: kept
 * beside the payload when the payload does not say it (a file push's `{"file":…}`).
 */
export function planSlices(
  store: Store,
  push: Pick<Push, 'appKey' | 'msgId' | 'createdAt'>,
  req: PushRequest,
  shape: WideShape,
): void {
  if (!shape.end) return // no device at all: nothing to go through
  const fromFile = isObject(req.body.audience) && 'file' in req.body.audience
  store.pushes.sliceFanOut(push, { after: shape.start, end: shape.end }, fromFile ? req.audience : undefined)
}

/**
 * Writes the next slice of a planned push; inside a write job. Returns true once every slice is
 * written (or there is nothing left to write: the push withdrawn, gone with its app's reset).
 * `req`: the push as read, when the caller has it (else read again from its row).
 */
export function writeSlice(deps: PipelineDeps, appKey: string, msgId: string, req?: PushRequest): boolean {
  const { store } = deps
  const push = store.pushes.get(appKey, msgId)
  const plan = push?.fanOut
  if (!push || !plan) return true
  const app = store.apps.get(appKey)
  // A withdrawn push reaches nobody more.
  if (!app || push.withdrawnAt != null) {
    store.pushes.fanOutAt(appKey, msgId, null)
    requests.get(store)?.delete(msgId)
    return true
  }
  const request = req ?? requestOf(store, push)
  const now = push.createdAt
  // The deliveries' times are the push's: a slice written later is the same push.
  const tenant: Tenant = { app, now: () => now }
  const calling = { msgId, sendno: push.sendno, callback: request.callback }
  const made: Delivery[] = []
  let written = 0
  // A broadcast's page: one INSERT … SELECT, like the whole broadcast of a small registry.
  // A vendor quota the app set is counted device by device (route.ts): row by row then.
  const setBased =
    request.audience === 'all' &&
    request.sms === undefined &&
    request.callback === undefined &&
    !hasFiniteQuota(app)
  const platforms = request.platforms.filter(p => reaches(request, p))
  const isTarget = targetTest(request, app)
  const tags = readsTags(request.audience)
  const started = performance.now()
  // PUSH_SLICE_DEVICES: the registry's devices a slice goes through at most (tests set a few).
  let left = deps.config.pushSliceDevices
  let after: RegistryKey | undefined = plan.after
  while (after && left > 0) {
    const limit = Math.min(PAGE, left)
    left -= limit
    const page = { after, end: plan.end, limit }
    if (setBased) {
      const ttl = request.options.timeToLive
      written += store.pushFanOut.insertSlice(
        { msgId, appKey, now, ttl },
        platforms,
        page,
        routingOfPush(request),
      )
      after = store.pushFanOut.sliceEnd(appKey, after, plan.end, limit)
    } else {
      const devices = store.pushFanOut.slice(appKey, after, plan.end, limit, tags)
      const targets = devices.filter(isTarget)
      made.push(...deliverEach(deps, tenant, request, targets, msgId, now))
      written += targets.length
      after = devices.length === limit ? devices.at(-1)!.key : undefined
    }
    if (performance.now() - started >= SLICE_BUDGET_MS) break
  }
  const next = after
  deliveriesMade(deps, app, calling, made, now)
  keepDeliveries(deps, appKey, msgId, written)
  if (next) {
    store.pushes.fanOutAt(appKey, msgId, { after: next, end: plan.end })
    return false
  }
  store.pushes.fanOutAt(appKey, msgId, null)
  requests.get(store)?.delete(msgId)
  if (request.callback) pushSucceeded(deps, app, calling, store.pushDeliveries.countOf(appKey, msgId), now)
  return true
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
        try {
          if (await store.write(() => writeSlice(deps, appKey, msgId))) break
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
