import type { ListWindow } from '../engine/lister.js'
import type { PushPlatform } from './devices.js'

// The rows of push_deliveries (push-deliveries.ts) as the rest of the sandbox sees them.

export type DeliveryStatus = 'pending' | 'delivered' | 'expired' | 'withdrawn'

/**
 * One push to one device: pending until it is online, delivered, or expired after time_to_live
 * (or withdrawn while it waited: push-withdrawals.ts).
 */
export interface Delivery {
  msgId: string
  appKey: string
  registrationId: string
  platform: PushPlatform
  status: DeliveryStatus
  expiresAt: number
  deliveredAt: number | null
  smsDueAt: number | null
  smsMsgId: string | null
  smsError: number | null
  /** Its push.delivered event, once delivered (seqs.ts). */
  seq: number | null
  /** The device's alias when the push was delivered to it. */
  alias: string | null
}

/** What a new delivery says; its seq is given by the store when it is delivered at once. */
export type NewDelivery = Omit<Delivery, 'seq'>

export type DeliveryFilter = ListWindow & { rid?: string; msgId?: string; alias?: string }

export interface DeliveryRow {
  msg_id: string
  app_key: string
  registration_id: string
  platform: string
  status: string
  expires_at: number
  delivered_at: number | null
  sms_due_at: number | null
  sms_msg_id: string | null
  sms_error: number | null
  seq: number | null
  alias: string | null
}

export const toDelivery = (r: DeliveryRow): Delivery => ({
  msgId: r.msg_id,
  appKey: r.app_key,
  registrationId: r.registration_id,
  platform: r.platform as PushPlatform,
  status: r.status as DeliveryStatus,
  expiresAt: r.expires_at,
  deliveredAt: r.delivered_at,
  smsDueAt: r.sms_due_at,
  smsMsgId: r.sms_msg_id,
  smsError: r.sms_error,
  seq: r.seq,
  alias: r.alias,
})
