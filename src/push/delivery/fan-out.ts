import type { PipelineDeps } from '../../deps.js'
import type { Delivery, NewDelivery } from '../../store/push/deliveries.js'
import type { Device, PushPlatform } from '../../store/push/devices.js'
import type { Tenant } from '../../tenancy.js'
import { groupsOf, type Registry, resolveAudience } from '../send/audience.js'
import type { PushRequest } from '../send/payload.js'
import { sendSmsFallback } from './sms-fallback.js'

// Who a push reaches and the delivery row each device gets (push_deliveries), in two ways with the
// same outcome:
// - set-based (store/push/fan-out.ts), for audience "all" without an SMS fallback: one count and
//   one INSERT … SELECT over the registry, nothing per device in JavaScript. A broadcast is the one
//   audience that is the whole registry, 100 000 devices and more (issue 11: ≤ 1 s).
// - row by row, for every other audience (they name devices through indexes: an alias is a few
//   rows of 100 000), and for a push with `sms_message`: its fallback needs each device's mobile,
//   and with delay_time 0 sends each text at once (sendSmsFallback), which SQL cannot do; and for a
//   test-mode push (options.test_model), whose test devices filter the audience as resolved.

/** The devices a push reaches, known before its msg_id is stored; their deliveries written after. */
export interface FanOut {
  /** How many devices it reaches (none: the 1011 of no target, unless a live activity). */
  targets: number
  /** Writes the deliveries; returns them when the push has a callback (what it reports on), else none. */
  deliver(msgId: string, now: number): Delivery[]
}

/** Call inside the write job that stores the push: the count and the rows must see the same registry. */
export function planFanOut(deps: PipelineDeps, tenant: Tenant, req: PushRequest): FanOut {
  return req.audience === 'all' && req.sms === undefined && !req.options.testModel
    ? setBased(deps, tenant, req)
    : rowByRow(deps, tenant, req)
}

/** Whether a device gets anything of this push: a notification for its platform, or the message. */
export function reaches(req: PushRequest, platform: PushPlatform): boolean {
  return req.message !== undefined || req.notification?.[platform] !== undefined
}

function setBased(deps: PipelineDeps, tenant: Tenant, req: PushRequest): FanOut {
  const { store } = deps
  const appKey = tenant.app.appKey
  const platforms = req.platforms.filter(p => reaches(req, p))
  const { targets, online } = store.pushFanOut.count(appKey, platforms)
  return {
    targets,
    deliver(msgId, now) {
      store.pushFanOut.insert({ msgId, appKey, now, ttl: req.options.timeToLive, online }, platforms)
      // Read back in the order they were written (rowid: the registry's), as the row-by-row path
      // collects them: only a push with a callback needs them.
      return req.callback ? store.pushDeliveries.ofPush(appKey, msgId) : []
    },
  }
}

function rowByRow(deps: PipelineDeps, tenant: Tenant, req: PushRequest): FanOut {
  const { app } = tenant
  const devices = deps.store.pushDevices
  const registry: Registry = {
    all: withTags => devices.list(app.appKey, withTags),
    get: rid => devices.get(app.appKey, rid),
    byAlias: alias => devices.byAlias(app.appKey, alias),
    byTag: tag => devices.byTag(app.appKey, tag),
  }
  // options.test_model: the audience as resolved, then only the app's test devices (docs/jpush-wire.md).
  const tests = req.options.testModel ? deps.store.pushTestDevices.ids(app.appKey) : undefined
  const targets = resolveAudience(req.audience, req.platforms, registry, groupsOf(app.settings)).filter(
    d => reaches(req, d.platform) && (tests === undefined || tests.has(d.registrationId)),
  )
  return {
    targets: targets.length,
    deliver: (msgId, now) => deliverEach(deps, tenant, req, targets, msgId, now),
  }
}

/** Writes the push's delivery to each of `targets` (and its SMS fallback); returns them if it has a callback. */
export function deliverEach(
  deps: PipelineDeps,
  tenant: Tenant,
  req: PushRequest,
  targets: Device[],
  msgId: string,
  now: number,
): Delivery[] {
  const { store } = deps
  const ttl = req.options.timeToLive
  const made: Delivery[] = []
  for (const d of targets) {
    const fallback = req.sms && d.mobile ? req.sms : undefined
    const delivery: NewDelivery = {
      msgId,
      appKey: tenant.app.appKey,
      registrationId: d.registrationId,
      platform: d.platform,
      status: d.online ? ('delivered' as const) : ttl > 0 ? ('pending' as const) : ('expired' as const),
      expiresAt: now + ttl * 1000,
      deliveredAt: d.online ? now : null,
      smsDueAt: fallback ? now + fallback.delayTime * 1000 : null,
      smsMsgId: null,
      smsError: null,
      alias: d.alias,
    }
    const inserted = store.pushDeliveries.insert(delivery)
    if (req.callback) made.push(inserted) // what its callback reports on
    // delay_time 0: the text goes out with the push, whatever happens to the push.
    if (fallback && d.mobile && fallback.delayTime === 0) {
      store.pushDeliveries.setSms(
        msgId,
        d.registrationId,
        sendSmsFallback(deps, tenant, fallback, d.mobile, now),
      )
    }
  }
  return made
}

/**
 * An app keeps at most PUSH_DELIVERIES_KEPT_PER_APP deliveries (its share of the disk): a write
 * that adds `added` of them beyond removes as many of the oldest pushes' (and a bounded number
 * more, should the setting have been lowered), never the push `msgId` being written.
 */
export function keepDeliveries(deps: PipelineDeps, appKey: string, msgId: string, added: number): void {
  deps.store.pushDeliveries.trim(appKey, {
    keep: deps.config.pushDeliveriesKept,
    atMost: added + 1_000,
    except: msgId,
  })
}
