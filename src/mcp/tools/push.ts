import { z } from 'zod'
import { LISTS } from '../../../client/src/lists.js'
import { type Shape, shapes } from '../shapes.js'
import { appKeyArg, defined, oneLine, tool } from '../tool.js'
import { listTool, waitTool } from './lists.js'

// The push side: the devices the test plays, what each received, a user opening a push.

const ridArg = z.string().min(1).describe('The device, by its registration_id.')

export const pushLine = (p: Shape<'push'>) =>
  `#${p.seq} msg_id ${p.msg_id} to ${p.registration_id} (${p.platform}${p.alias ? `, alias ${p.alias}` : ''}) ` +
  `at ${p.received_at}${p.withdrawn_at ? ' (withdrawn)' : ''}: ${oneLine(p.notification ?? p.message, 160)}`

const deviceLine = (d: Shape<'device'>) =>
  `${d.registration_id} ${d.platform} ${d.online ? 'online' : 'offline'}` +
  `${d.alias ? ` alias ${d.alias}` : ''}${d.tags.length ? ` tags ${d.tags.join(',')}` : ''}${d.mobile ? ` mobile ${d.mobile}` : ''}`

const pushes = {
  list: LISTS.pushes,
  one: 'push',
  many: 'pushes',
  item: shapes.push,
  filter: {
    registration_id: ridArg.optional(),
    alias: z.string().optional().describe('The alias the device had when the push reached it.'),
    msg_id: z.string().optional().describe('One push, by the msg_id /v3/push answered.'),
  },
  line: pushLine,
}

export const listPushes = listTool({
  ...pushes,
  name: 'list_pushes',
  title: 'Pushes received',
  description:
    'The pushes devices received, newest first, as each platform got them: use it to see what a user’s phone showed.',
  when: 'Received',
  read: (client, filter) => client.pushes(filter),
})

export const waitForPush = waitTool({
  ...pushes,
  name: 'wait_for_push',
  title: 'Wait for a push',
  description:
    'Waits for the next push a device receives matching the filters and answers it, or what did arrive when none matched: use it after the code under test pushes.',
})

export const listDevices = tool({
  name: 'list_devices',
  title: 'Devices',
  description:
    'The app’s push devices (registration_id, platform, alias, tags, mobile, online): use it to pick a registration_id to push to.',
  input: { ...appKeyArg },
  output: { devices: z.array(shapes.device) },
  annotations: { readOnlyHint: true },
  run: async (s, { app_key }) => ({ devices: await s.app(app_key).client.devices.list() }),
  text: ({ devices }) => (devices.length === 0 ? 'no devices' : devices.map(deviceLine).join('\n')),
})

export const registerDevice = tool({
  name: 'register_device',
  title: 'Register a device',
  description:
    'Registers a push device as a phone app would with JPush (made online unless told): use it to give a push a device to reach.',
  input: {
    ...appKeyArg,
    platform: z.enum(['android', 'ios', 'hmos', 'quickapp', 'winphone']),
    registration_id: z.string().optional().describe('Made for the platform when left out.'),
    alias: z.string().optional(),
    tags: z.array(z.string()).optional(),
    mobile: z.string().optional().describe('Where an SMS fallback of a push goes.'),
    online: z.boolean().optional().describe('true unless false.'),
  },
  output: shapes.device.shape,
  annotations: {},
  run: (s, { app_key, ...device }) =>
    s.app(app_key).client.devices.register(defined(device) as typeof device),
  text: d => `registered ${deviceLine(d)}`,
})

export const clickPush = tool({
  name: 'click_push',
  title: 'Open a push',
  description:
    'Plays a user opening (clicking) a push their device received, counted by the click statistics: use it to test click handling.',
  input: {
    ...appKeyArg,
    msg_id: z.string().min(1).describe('The push, by the msg_id /v3/push answered.'),
    registration_id: ridArg,
  },
  output: shapes.clicked.shape,
  annotations: {},
  run: (s, { app_key, msg_id, registration_id }) =>
    s.app(app_key).client.devices.click(msg_id, registration_id),
  text: c =>
    `${c.registration_id} (${c.platform}) opened the ${c.kind} of push ${c.msg_id} at ${c.clicked_at}`,
})
