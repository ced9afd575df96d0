import { z } from 'zod'
import type { PipelineDeps } from '../../deps.js'
import type { QueryValue } from '../../http/body/query.js'
import { field, query } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import { reportErrors as e } from '../errors.js'
import { countPushes, type LaneCounts, type PlatformCounts, type PushCounts } from './counts.js'
import { readMsgIdList } from './report.js'
import { tallyUsers, type UsersLimits, usersAnswer, usersQueryOf, usersView } from './users.js'

// Group statistics (docs/jpush-wire.md "Group statistics"; cav greport/*.go, the old Java
// ReportClient.getGroupMessagesDetail and getGroupUsers): with a group's credentials
// (`group-<groupKey>`), what the group's pushes did across its member apps, summed, and the
// member apps' users, summed. A group push's parts are the pushes its members made
// (pushes.group_msgid).

const GROUP_LIMITS = {
  /** "最多支持 10 个". */
  groupMsgIds: 10,
  /** "只支持查询 30 天以内的推送信息". */
  retentionMs: 30 * 86_400_000,
} as const

/** "只支持查询 30 天以内的用户信息": HOUR within a day, DAY at most 30, MONTH 1 (cav greport). */
const GROUP_USERS_LIMITS: UsersLimits = { HOUR: 24, DAY: 30, MONTH: 1, lookbackDays: 30 }

const groupMsgIds = field({
  read: value => readMsgIdList(value as QueryValue, 'group_msgids', GROUP_LIMITS.groupMsgIds),
  schema: z
    .string()
    .describe(`Comma-separated group_msgids of /v3/grouppush, at most ${GROUP_LIMITS.groupMsgIds}.`),
  errors: [e.invalid('group_msgids is invalid')],
})

const counter = z.int()
const detailItem = z.object({
  group_msgid: z.string(),
  jpush: z
    .object({
      target: counter,
      online_push: counter,
      sent: counter,
      received: counter,
      display: counter,
      click: counter,
      msg_click: counter,
    })
    .nullable()
    .describe('The JPush connection (Android notifications and messages): null for an unknown group_msgid.'),
  android_pns: z
    .object({ pns_target: counter, pns_sent: counter, pns_received: counter, pns_display: counter })
    .nullable()
    .describe('The vendor channels: none here, so 0.'),
  ios: z
    .object({
      apns_target: counter,
      apns_sent: counter,
      apns_received: counter,
      apns_click: counter,
      apns_display: counter,
      msg_target: counter,
      msg_received: counter,
      msg_click: counter,
      msg_display: counter,
    })
    .nullable(),
  hmos: z
    .object({
      hmpns_target: counter,
      hmpns_sent: counter,
      hmpns_received: counter,
      hmpns_click: counter,
      msg_target: counter,
      msg_received: counter,
      msg_click: counter,
    })
    .nullable(),
})

export function groupReportRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store, config } = deps
  const GROUP = 'Credentials `group-<groupKey>:<groupMasterSecret>`, as for POST /v3/grouppush.'
  return [
    vendorRoute({
      method: 'GET',
      url: '/group/messages/detail',
      summary:
        'A group push\'s statistics, summed over its member apps (docs/jpush-wire.md "Group statistics")',
      description:
        `${GROUP} Each group_msgid's pushes (one per member app that accepted it), counted as /v3/messages/detail ` +
        'counts them; an unknown group_msgid (or one older than 30 days) has null counters.',
      config: { auth: 'group' },
      reads: { query: query({ group_msgids: groupMsgIds }) },
      answer: z.array(detailItem),
      handler: async (req, { query }) => {
        const members = new Map(req.group!.members.map(m => [m.tenant.app.appKey, m.tenant]))
        return query.group_msgids.map(groupMsgId => {
          const parts = store.pushes
            .ofGroup(groupMsgId)
            .filter(p => members.has(p.appKey))
            .filter(p => members.get(p.appKey)!.now() - p.createdAt <= GROUP_LIMITS.retentionMs)
          if (parts.length === 0)
            return { group_msgid: groupMsgId, jpush: null, android_pns: null, ios: null, hmos: null }
          const counts = parts.map(
            p => countPushes(deps, p.appKey, [p.msgId], members.get(p.appKey)!.now())[0]!,
          )
          /** A counter summed over the parts; `when` picks the parts it counts on (a notification, a message). */
          const sum = (
            platform: 'android' | 'ios' | 'hmos',
            key: keyof Omit<PlatformCounts, 'notification' | 'lanes'>,
            when: (c: PushCounts) => boolean = () => true,
          ) => counts.reduce((n, c) => n + (when(c) ? c.platforms[platform][key] : 0), 0)
          const notified = (platform: 'android' | 'ios' | 'hmos') => (c: PushCounts) =>
            c.platforms[platform].notification
          const messaged = (c: PushCounts) => c.message
          const isJg = (l: string) => l === 'jg_android'
          const isPns = (l: string) => l !== 'jg_android'
          /** An Android lane counter summed over the parts and the lanes `which` picks. */
          const lane = (
            which: (l: string) => boolean,
            key: keyof LaneCounts,
            when: (c: PushCounts) => boolean = () => true,
          ) =>
            counts.reduce(
              (n, c) =>
                n +
                (when(c)
                  ? Object.entries(c.platforms.android.lanes)
                      .filter(([l]) => which(l))
                      .reduce((m, [, x]) => m + x[key], 0)
                  : 0),
              0,
            )
          return {
            group_msgid: groupMsgId,
            // Android by the channel each delivery took: the JPush connection, or a maker's.
            jpush: {
              target: lane(isJg, 'target'),
              online_push: lane(isJg, 'onlinePush'),
              sent: lane(isJg, 'sent'),
              received: lane(isJg, 'received'),
              display: lane(isJg, 'received', notified('android')),
              click: lane(isJg, 'click'),
              msg_click: lane(isJg, 'msgClick'),
            },
            android_pns: {
              pns_target: lane(isPns, 'target'),
              pns_sent: lane(isPns, 'sent'),
              pns_received: lane(isPns, 'received'),
              pns_display: lane(isPns, 'received', notified('android')),
            },
            ios: {
              apns_target: sum('ios', 'target', notified('ios')),
              apns_sent: counts.reduce(
                (n, c) => n + (c.platforms.ios.notification ? (c.platforms.ios.lanes.apns?.sent ?? 0) : 0),
                0,
              ),
              apns_received: sum('ios', 'received', notified('ios')),
              apns_click: sum('ios', 'click'),
              apns_display: sum('ios', 'received', notified('ios')),
              msg_target: sum('ios', 'target', messaged),
              msg_received: sum('ios', 'received', messaged),
              msg_click: sum('ios', 'msgClick'),
              msg_display: 0,
            },
            hmos: {
              hmpns_target: sum('hmos', 'target', notified('hmos')),
              hmpns_sent: sum('hmos', 'target', notified('hmos')),
              hmpns_received: sum('hmos', 'received', notified('hmos')),
              hmpns_click: sum('hmos', 'click'),
              msg_target: sum('hmos', 'target', messaged),
              msg_received: sum('hmos', 'received', messaged),
              msg_click: sum('hmos', 'msgClick'),
            },
          }
        })
      },
    }),
    (() => {
      const usersQuery = usersQueryOf(GROUP_USERS_LIMITS)
      return vendorRoute({
        method: 'GET',
        url: '/group/users',
        summary:
          'The member apps\' devices new, online and active, summed (docs/jpush-wire.md "Group statistics")',
        description: `${GROUP} As GET /v3/users counts them, over the last 30 days (DAY at most 30, MONTH 1).`,
        config: { auth: 'group' as const },
        checks: [usersQuery],
        answer: usersAnswer,
        handler: async req => {
          const { members } = req.group!
          // The periods on the clock of the group's first member (in appKey order).
          const now = members[0]!.tenant.now()
          const asked = usersQuery.read(req, now, config.timeZone)
          return usersView(
            asked,
            members.map(m => tallyUsers(store, m.tenant.app.appKey, asked.periods, m.tenant.now())),
          )
        },
      })
    })(),
  ]
}
