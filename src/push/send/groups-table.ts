import type { Engine } from '../../store/engine/index.js'

/**
 * Groups of apps for group push (jpush-api.md §5.14): an app belongs to the group its settings
 * name (`settings.group.group_key`, with the group's master secret beside it), so a group is read
 * from the apps themselves through the index of migration 009; it has no row of its own.
 */
export function createPushGroupStore({ db }: Engine) {
  const members = db.prepare<[string], { app_key: string }>(
    `SELECT app_key FROM apps WHERE json_extract(settings, '$.group.group_key') = ? ORDER BY app_key`,
  )
  const grouped = db.prepare<[string], { app_key: string }>(
    `SELECT app_key FROM apps WHERE dev_key = ? AND json_extract(settings, '$.group.group_key') IS NOT NULL
     ORDER BY app_key LIMIT 1`,
  )
  return {
    /**
     * The developer's first app (appKey order) that is in a group, if any: the developer may then
     * use the file API for file group push, and that app holds the developer's files (push/files).
     */
    holderOf(devKey: string): string | undefined {
      return grouped.get(devKey)?.app_key
    },
    /** The appKeys that name this group, in appKey order. */
    members(groupKey: string): string[] {
      return members.all(groupKey).map(r => r.app_key)
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /**
     * The apps of each group, for group push (store.pushGroups): batch.ts, group auth
     * (http/auth/group-auth.ts), the control plane's membership (sandbox/push/group.ts).
     */
    pushGroups: ReturnType<typeof createPushGroupStore>
  }
}
