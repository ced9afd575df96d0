import { z } from 'zod'
import type { AppDocument } from '../../../client/src/app-types.js'
import { type Shape, shapes } from '../shapes.js'
import { appKeyArg, defined, tool } from '../tool.js'

// The app as a whole: its settings (never its developer's secret), reset, its document exported
// and imported, a link to it in the web UI, and for the operator the list of every app.

type WithSecret = Omit<Shape<'appSettings'>, 'developer'> & {
  developer: Shape<'appSettings'>['developer'] & { dev_secret?: string }
}

/** The app as GET /_sandbox/app shows it, without its developer's secret. */
function withoutSecret(app: WithSecret): Shape<'appSettings'> {
  const { dev_secret: _, ...developer } = app.developer
  return { ...app, developer }
}

const settingsText = (a: Shape<'appSettings'>) =>
  [
    `app ${a.app_key}: ${a.blacklisted ? 'blacklisted' : 'not blacklisted'}, SMS ${a.sms_enabled ? 'on' : 'off'}` +
      `${a.developer.frozen ? `, developer ${a.developer.dev_key} frozen` : ''}`,
    `balances ${JSON.stringify(a.balances)}; developer's ${JSON.stringify(a.developer.balances)}`,
    `settings ${JSON.stringify(a.settings)}`,
    `callback_url ${a.callback_url ?? 'none'}; ip_whitelist ${JSON.stringify(a.ip_whitelist)}; ` +
      `sensitive_words ${JSON.stringify(a.sensitive_words)}; unsubscribed ${JSON.stringify(a.unsubscribed)}`,
    `clock ${new Date(a.clock.now).toISOString()} (offset ${a.clock.offset_ms} ms)`,
  ].join('\n')

export const appSettings = tool({
  name: 'app_settings',
  title: 'The app’s settings',
  description:
    'Reads the app’s settings (balances, blacklist, sms_enabled, rate limits, callback_url, whitelist, sensitive words, clock), or changes some at once with `change`: use it to set up a test’s conditions.',
  input: {
    ...appKeyArg,
    change: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'Keys to change, as PATCH /_sandbox/app takes them: {"balances":{"industry":5}}, {"blacklisted":true}, {"settings":{"rate_limits":{"push":3}}}, {"developer":{"frozen":true}}, {"callback_url":null}… Objects merge, lists are replaced.',
      ),
  },
  output: shapes.appSettings.shape,
  annotations: {},
  run: async (s, { app_key, change }) => {
    const { client } = s.app(app_key)
    return withoutSecret(change === undefined ? await client.app() : await client.patchApp(change as never))
  },
  text: settingsText,
})

export const resetApp = tool({
  name: 'reset_app',
  title: 'Reset the app',
  description:
    'Sets the app back to its first use — every text, push, device, template, fault and journal entry gone, settings and clock back — in one call: use it between test cases.',
  input: { ...appKeyArg },
  output: shapes.appSettings.shape,
  annotations: { destructiveHint: true, idempotentHint: true },
  run: async (s, { app_key }) => withoutSecret(await s.app(app_key).client.reset()),
  text: a => `reset: ${settingsText(a)}`,
})

export const exportApp = tool({
  name: 'export_app',
  title: 'Export the app',
  description:
    'Everything the app holds as one document (rows of every table, clock, faults; never its credentials): use it to keep a failed test’s state, or to pass it to import_app on another sandbox.',
  input: { ...appKeyArg },
  output: { document: shapes.document },
  annotations: { readOnlyHint: true },
  run: async (s, { app_key }) => ({ document: await s.app(app_key).client.exportApp() }),
  text: ({ document: d }) => {
    const tables = Object.entries(d.tables).filter(([, rows]) => rows.length > 0)
    const rows = tables.reduce((n, [, r]) => n + r.length, 0)
    return (
      `the document of app ${d.app_key}: ${rows} rows in ${tables.length} tables ` +
      `(${tables.map(([t, r]) => `${t} ${r.length}`).join(', ')}), ${d.faults.length} faults, clock ${new Date(d.clock.now).toISOString()}:\n` +
      JSON.stringify(d)
    )
  },
})

export const importApp = tool({
  name: 'import_app',
  title: 'Import a document into the app',
  description:
    'Makes the app hold exactly what a document of export_app says (its own credentials kept), on this or another sandbox: use it to replay a failed test’s state.',
  input: {
    ...appKeyArg,
    document: z
      .object({
        format: z.string().describe('"jiguang-sandbox/app"'),
        version: z.number().describe('1'),
      })
      .loose()
      .describe('The document, as export_app (GET /_sandbox/app/export) answered it.'),
  },
  output: shapes.imported.shape,
  annotations: { destructiveHint: true, idempotentHint: true },
  run: (s, { app_key, document }) => s.app(app_key).client.importApp(document as unknown as AppDocument),
  text: i => `app ${i.app_key} now holds the document: ${i.rows} rows, ${i.faults} faults armed`,
})

const VIEWS = [
  'phones',
  'devices',
  'scheduled',
  'requests',
  'callbacks',
  'templates',
  'clock',
  'settings',
] as const

export const uiLink = tool({
  name: 'ui_link',
  title: 'Link to the web UI',
  description:
    'A link to the app in the sandbox’s web UI, on a view (a phone, a device, the refused requests…): use it to show a person what happened, live.',
  input: {
    ...appKeyArg,
    view: z.enum(VIEWS).default('requests').describe('Which view opens.'),
    mobile: z.string().optional().describe('phones: this phone’s messages.'),
    msg_id: z
      .string()
      .optional()
      .describe('phones: this text, with mobile; requests: the calls of this msg_id.'),
    registration_id: z.string().optional().describe('devices: this device.'),
    schedule_id: z.string().optional().describe('scheduled: this task.'),
    outcome: z.enum(['2xx', '4xx', '5xx']).optional().describe('requests: only these answers.'),
    code: z.number().int().optional().describe('requests: only this code.'),
    path: z.string().optional().describe('requests: paths starting with this.'),
  },
  output: { url: z.string(), app_key: z.string(), view: z.enum(VIEWS) },
  annotations: { readOnlyHint: true },
  run: async (s, a) => {
    const { appKey } = s.app(a.app_key)
    const args =
      a.view === 'phones'
        ? [a.mobile, a.mobile && a.msg_id]
        : a.view === 'devices'
          ? [a.registration_id]
          : a.view === 'scheduled'
            ? [a.schedule_id]
            : []
    const filters =
      a.view === 'requests'
        ? new URLSearchParams(
            defined({
              outcome: a.outcome,
              code: a.code?.toString(),
              path: a.path,
              msg_id: a.msg_id,
            }) as Record<string, string>,
          ).toString()
        : ''
    const hash = `#/${a.view}${args
      .filter(Boolean)
      .map(x => `/${encodeURIComponent(x as string)}`)
      .join('')}${filters ? `?${filters}` : ''}`
    return {
      url: `${s.baseUrl}/_sandbox/ui/?app=${encodeURIComponent(appKey)}${hash}`,
      app_key: appKey,
      view: a.view,
    }
  },
  text: l =>
    `${l.url}\n(the page signs in on its own form: the app's credentials, or the operator's, who opens any app)`,
})

const counted = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`
const appLine = (a: Shape<'apps'>['apps'][number]) =>
  `${a.app_key}: ${counted(a.counts.texts, 'text')}, ${counted(a.counts.pushes, 'push', 'pushes')}, ` +
  `${counted(a.counts.devices, 'device')}, ${counted(a.counts.requests, 'request')} (${a.counts.refusals} refused), ` +
  `last request ${a.last_request_at ?? 'never'}`

export const listApps = tool({
  name: 'list_apps',
  title: 'Every app (the operator)',
  description:
    'Every app of the sandbox, the most recently active first, with its counts of texts, pushes, requests and refusals: use it to find the app a test made.',
  input: {
    prefix: z.string().optional().describe('Apps whose appKey starts with this.'),
    active_since: z
      .union([z.string(), z.number()])
      .optional()
      .describe('Apps whose last request was at or after this real time: ISO-8601 or epoch milliseconds.'),
    limit: z.number().int().min(1).max(1000).default(20).describe('How many (1–1000).'),
  },
  output: shapes.apps.shape,
  annotations: { readOnlyHint: true },
  operatorOnly: true,
  run: (s, filter) => s.apps().apps(defined(filter)),
  text: page => (page.apps.length === 0 ? 'no apps match' : page.apps.map(appLine).join('\n')),
})
