import { z } from 'zod'
import type { RouteSpec } from '../../http/routes.js'
import { schemaRoute } from '../../http/schema.js'
import { type GroupSetting, groupSetting } from '../../seed/push-settings.js'
import type { App } from '../../store/apps/apps.js'
import type { Store } from '../../store/index.js'

// The calling app's membership of a group for group push (POST /v3/grouppush): the app setting
// `settings.group` (seed/push-settings.ts), set here without a seed file. A group is the apps that
// name the same group_key and master_secret; each app joins or leaves it only for itself.

const schemas = {
  group: z.object({
    group_key: z.string().nullable(),
    /** The group's master secret: the second half of `group-<group_key>:<master_secret>`. */
    master_secret: z.string().nullable(),
    /** The apps of the group (the caller included), in appKey order. */
    members: z.array(z.string()),
  }),
}

const groupOf = (app: App): GroupSetting | undefined => {
  const parsed = groupSetting.safeParse(app.settings.group)
  return parsed.success ? parsed.data : undefined
}

export function pushGroupRoutes(deps: { store: Store }): RouteSpec[] {
  const { store } = deps
  const show = (appKey: string): z.input<typeof schemas.group> => {
    const group = groupOf(store.apps.get(appKey)!)
    if (!group) return { group_key: null, master_secret: null, members: [] }
    const members = store.pushGroups
      .members(group.group_key)
      .filter(key => groupOf(store.apps.get(key)!)?.master_secret === group.master_secret)
    return { group_key: group.group_key, master_secret: group.master_secret, members }
  }
  const setGroup = (app: App, group: GroupSetting | undefined) => {
    const { group: _, ...settings } = app.settings
    return store.write(() =>
      store.apps.updateSettings({ ...app, settings: group ? { ...settings, group } : settings }),
    )
  }
  return [
    schemaRoute({
      method: 'GET',
      url: '/push/group',
      schema: { response: { 200: schemas.group } },
      handler: async req => show(req.tenant.app.appKey),
    }),
    schemaRoute({
      method: 'PUT',
      url: '/push/group',
      schema: { body: groupSetting, response: { 200: schemas.group } },
      handler: async req => {
        await setGroup(req.tenant.app, req.body)
        return show(req.tenant.app.appKey)
      },
    }),
    schemaRoute({
      method: 'DELETE',
      url: '/push/group',
      schema: { response: { 200: schemas.group } },
      handler: async req => {
        await setGroup(req.tenant.app, undefined)
        return show(req.tenant.app.appKey)
      },
    }),
  ]
}
