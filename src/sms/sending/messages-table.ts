import type { Engine } from '../../store/engine/index.js'
import { createLister, type ListWindow } from '../../store/engine/lister.js'
import { msgIdKey, msgIdText, newMsgIdKey } from '../msg-ids.js'

export type MessageKind = 'code' | 'voice_code' | 'template'

export interface Message {
  msgId: string
  appKey: string
  mobile: string
  kind: MessageKind
  tempId: number | null
  tempType: number | null
  signId: number | null
  tempPara: Record<string, string> | null
  content: string
  units: number
  tag: string | null
  scheduleId: string | null
  createdAt: number
  /** Its sms.sent event (seqs.ts). */
  seq: number
}

/** A message as the control plane lists it: with the code it carried (codes and voice codes). */
export type ListedMessage = Message & { code: string | null }

interface Row {
  msg_id: number
  app_key: string
  mobile: string
  kind: string
  temp_id: number | null
  temp_type: number | null
  sign_id: number | null
  temp_para: string | null
  content: string
  units: number
  tag: string | null
  schedule_id: string | null
  created_at: number
  seq: number
}

const toMessage = (r: Row): Message => ({
  msgId: msgIdText(r.msg_id),
  appKey: r.app_key,
  mobile: r.mobile,
  kind: r.kind as MessageKind,
  tempId: r.temp_id,
  tempType: r.temp_type,
  signId: r.sign_id,
  tempPara: r.temp_para === null ? null : JSON.parse(r.temp_para),
  content: r.content,
  units: r.units,
  tag: r.tag,
  scheduleId: r.schedule_id,
  createdAt: r.created_at,
  seq: r.seq,
})

/** The control plane's filters of sent messages. */
export type MessageFilter = ListWindow & { mobile?: string; msgId?: string; kind?: string }

export function createMessageStore({ db, writes }: Engine) {
  // Positional, the app's key second; its seq (the sms.sent event's) taken and bound by the engine.
  const insert = writes<unknown[]>(
    `INSERT INTO messages (msg_id, app_key, mobile, kind, temp_id, temp_type, sign_id, temp_para, content, units,
       tag, schedule_id, created_at, seq)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, @seq)`,
    { key: m => m[1] as string, seq: 'sms' },
  )
  const list = createLister<'mobile' | 'msgId' | 'kind', Row & { code: string | null }>(db, {
    columns: 'm.*, c.code',
    from: 'messages m',
    join: 'LEFT JOIN codes c ON c.msg_id = m.msg_id',
    appKey: 'm.app_key',
    seq: 'm.seq',
    time: 'm.created_at',
    filters: { mobile: 'm.mobile = @mobile', msgId: 'm.msg_id = @msgId', kind: 'm.kind = @kind' },
    // msg_id is the rowid (migration 012): SQLite looks it up before anything else.
    indexed: { mobile: 'messages_by_mobile' },
  })
  // Frequency windows (sms-service.md §8) are counted from what was actually sent: nothing to
  // keep in step, and they survive restarts.
  const countKind = db.prepare<
    { appKey: string; mobile: string; kind: string; since: number },
    { n: number }
  >(
    `SELECT count(*) AS n FROM messages
     WHERE app_key = @appKey AND mobile = @mobile AND created_at > @since AND kind = @kind`,
  )
  const countType = db.prepare<
    { appKey: string; mobile: string; type: number; since: number },
    { n: number }
  >(
    `SELECT count(*) AS n FROM messages
     WHERE app_key = @appKey AND mobile = @mobile AND created_at > @since AND kind = 'template' AND temp_type = @type`,
  )
  // The two notification windows (same content in 10 minutes, any in the calendar day) and the
  // two kinds of verification codes, each in one index range scan instead of two statements.
  const countNotifications = db.prepare<
    [number, number, string, string, string, number],
    { day: number; same: number }
  >(
    `SELECT count(*) FILTER (WHERE created_at > ?) AS day,
       count(*) FILTER (WHERE created_at > ? AND content = ?) AS same
     FROM messages WHERE app_key = ? AND mobile = ? AND created_at > ? AND kind = 'template' AND temp_type = 2`,
  )
  const countCodes = db.prepare<[string, string, number], { n: number }>(
    `SELECT count(*) AS n FROM messages WHERE app_key = ? AND mobile = ? AND created_at > ?
       AND (kind = 'code' OR (kind = 'template' AND temp_type = 1))`,
  )

  return {
    /** Stores a sent message with the next seq of its app; returns the seq. */
    insert(m: Omit<Message, 'seq'>): number {
      return insert.run([
        newMsgIdKey(m.msgId),
        m.appKey,
        m.mobile,
        m.kind,
        m.tempId,
        m.tempType,
        m.signId,
        m.tempPara === null ? null : JSON.stringify(m.tempPara),
        m.content,
        m.units,
        m.tag,
        m.scheduleId,
        m.createdAt,
      ]).seq
    },
    list(appKey: string, filter: MessageFilter): ListedMessage[] {
      const query = filter.msgId === undefined ? filter : { ...filter, msgId: msgIdKey(filter.msgId) }
      return list(appKey, query).map(r => ({ ...toMessage(r), code: r.code }))
    },
    countKindSince(appKey: string, mobile: string, kind: MessageKind, since: number): number {
      return countKind.get({ appKey, mobile, kind, since })!.n
    },
    countTypeSince(appKey: string, mobile: string, type: number, since: number): number {
      return countType.get({ appKey, mobile, type, since })!.n
    },
    /** Notifications to the mobile: since `daySince`, and with this content since `sameSince`. */
    countNotifications(
      appKey: string,
      mobile: string,
      content: string,
      sameSince: number,
      daySince: number,
    ): { day: number; same: number } {
      return countNotifications.get(
        daySince,
        sameSince,
        content,
        appKey,
        mobile,
        Math.min(sameSince, daySince),
      )!
    },
    /** Verification codes (the code API and verification templates) to the mobile since `since`. */
    countCodesSince(appKey: string, mobile: string, since: number): number {
      return countCodes.get(appKey, mobile, since)!.n
    },
  }
}

export type MessageStore = ReturnType<typeof createMessageStore>

declare module '../../store/index.js' {
  interface Tables {
    /** Sent messages, each with its sms.sent seq; the frequency windows count them (store.messages). */
    messages: MessageStore
  }
}
