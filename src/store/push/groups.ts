import type { Engine } from '../engine/index.js'

/**
 * Groups of apps for group push (jpush-api.md §5.14): an app belongs to the group its settings
 * name (`settings.group.group_key`, with the group's master secret beside it), so a group is read
 * from the apps themselves through the index of migration 009; it has no row of its own.
 */
export function createPushGroupStore({ db }: Engine) {
  const members = db.prepare<[string], { app_key: string }>(
    `SELECT app_key FROM apps WHERE json_extract(settings, '$.group.group_key') = ? ORDER BY app_key`,
  )
  return {
    /** The appKeys that name this group, in appKey order. */
    members(groupKey: string): string[] {
      return members.all(groupKey).map(r => r.app_key)
    },
  }
}
