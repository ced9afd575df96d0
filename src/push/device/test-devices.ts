import { z } from 'zod'
import type { PipelineDeps } from '../../deps.js'
import { firstValue } from '../../http/body/query.js'
import { field, jsonBody, params, query } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import { formatLocal } from '../../time.js'
import { deviceErrors as e } from '../errors.js'
import { isWellFormedRid } from '../values.js'
import { done } from './devices.js'
import { deviceObject, requireDevice, rid } from './fields.js'

// Test devices (docs/jpush-wire.md "Test devices"; cav device/v3_*_test_device*.go, the vendor's
// "测试模式"): devices of the app marked for test mode, which a push with `options.test_model: true`
// reaches alone (delivery/fan-out.ts). On the device host, with its codes: 7002 for what is wrong.

export const TEST_DEVICE_LIMITS = {
  /** The sandbox's bound per app (the vendor documents none). */
  perApp: 1000,
  deviceNameChars: 64,
  /** GET list: "page 和 pageSize 不传…默认为 1 和 200". */
  defaultPageSize: 200,
  maxPageSize: 1000,
} as const

const deviceName = field({
  read(value): string {
    if (value === undefined || value === null || value === '') throw e.invalid('device_name is required')
    if (typeof value !== 'string') throw e.invalid('device_name must be a string')
    if ([...value].length > TEST_DEVICE_LIMITS.deviceNameChars)
      throw e.invalid(`device_name is longer than ${TEST_DEVICE_LIMITS.deviceNameChars} characters`)
    return value
  },
  schema: z.string().max(TEST_DEVICE_LIMITS.deviceNameChars).describe('A name of your own for the device.'),
  errors: [e.invalid('device_name is required'), e.invalid('device_name must be a string')],
})

const registrationId = field({
  read(value): string {
    if (value === undefined || value === null || value === '') throw e.invalid('registration_id is required')
    if (typeof value !== 'string' || !isWellFormedRid(value))
      throw e.invalid(`registration_id '${String(value).slice(0, 64)}' is invalid`)
    return value
  },
  schema: z.string().describe('A device of the app.'),
  errors: [
    e.invalid('registration_id is required'),
    e.invalid("registration_id '1a0018970a8b0fd6c0e_x' is invalid"),
  ],
})

const testDevice = jsonBody(deviceObject, { device_name: deviceName, registration_id: registrationId })

/** `?page=` and `?page_size=`: whole numbers from 1 (page_size at most 1000). */
const count = (name: string, fallback: number, max: number) =>
  field({
    read(value): number {
      const text = firstValue(value) ?? ''
      if (text === '' || text === '0') return fallback
      if (!/^\d{1,9}$/.test(text) || Number(text) > max) throw e.invalid(`${name} is invalid`)
      return Number(text)
    },
    schema: z.string().describe(`A whole number, 1 to ${max}; ${fallback} when absent.`).optional(),
    errors: [e.invalid(`${name} is invalid`)],
  })

const optionalText = (description: string) =>
  field({
    read: value => firstValue(value) || undefined,
    schema: z.string().describe(description).optional(),
    errors: [],
  })

const listAnswer = z.object({
  total: z.int(),
  page: z.int(),
  page_size: z.int(),
  detail: z.array(
    z.object({
      device_name: z.string(),
      device_model: z.string().describe('The sandbox’s devices have no model: their platform.'),
      registration_id: z.string(),
      registration_time: z.string().describe('`yyyy-MM-dd HH:mm:ss`: when the device registered.'),
      create_time: z.string().describe('`yyyy-MM-dd HH:mm:ss`: when it became a test device.'),
    }),
  ),
})

export function testDeviceRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store, config } = deps
  const VIP = 'VIP-only at the vendor; every app may use it here.'
  return [
    vendorRoute({
      method: 'POST',
      url: '/test/model/add',
      summary: 'Make a device of the app a test device (docs/jpush-wire.md "Test devices")',
      description: `A push with \`options.test_model: true\` reaches the test devices of its audience only. ${VIP}`,
      reads: { body: testDevice },
      checks: [
        e.invalid("registration_id '1a0018970a8b0fd6c0d' is invalid"),
        e.testDeviceTaken('1a0018970a8b0fd6c0e'),
        e.invalid(`an app has at most ${TEST_DEVICE_LIMITS.perApp} test devices`),
      ],
      answer: done,
      handler: async (req, { body }) => {
        const { appKey } = req.tenant.app
        const now = req.tenant.now()
        await store.write(() => {
          requireDevice(store, appKey, body.registration_id)
          if (store.pushTestDevices.get(appKey, body.registration_id))
            throw e.testDeviceTaken(body.registration_id)
          if (store.pushTestDevices.count(appKey) >= TEST_DEVICE_LIMITS.perApp)
            throw e.invalid(`an app has at most ${TEST_DEVICE_LIMITS.perApp} test devices`)
          store.pushTestDevices.add({
            appKey,
            registrationId: body.registration_id,
            deviceName: body.device_name,
            createdAt: now,
          })
        })
        return {}
      },
    }),
    vendorRoute({
      method: 'PUT',
      url: '/test/model/update',
      summary: 'Rename a test device (docs/jpush-wire.md "Test devices")',
      reads: { body: testDevice },
      checks: [e.notATestDevice('1a0018970a8b0fd6c0e')],
      answer: done,
      handler: async (req, { body }) => {
        const { appKey } = req.tenant.app
        await store.write(() => {
          if (!store.pushTestDevices.rename(appKey, body.registration_id, body.device_name))
            throw e.notATestDevice(body.registration_id)
        })
        return {}
      },
    }),
    vendorRoute({
      method: 'DELETE',
      url: '/test/model/delete/:registration_id',
      summary: 'Make a test device an ordinary one again (docs/jpush-wire.md "Test devices")',
      description: 'A device that is no test device is one already: `{}` too.',
      reads: { params: params({ registration_id: rid }) },
      answer: done,
      handler: async (req, { params }) => {
        const { appKey } = req.tenant.app
        await store.write(() => store.pushTestDevices.remove(appKey, params.registration_id))
        return {}
      },
    }),
    vendorRoute({
      method: 'GET',
      url: '/test/model/list',
      summary: 'The app\'s test devices, a page at a time (docs/jpush-wire.md "Test devices")',
      description:
        'In the order they were added. `device_name` matches part of a name; `registration_id` one device.',
      reads: {
        query: query({
          page: count('page', 1, 1_000_000),
          page_size: count('page_size', TEST_DEVICE_LIMITS.defaultPageSize, TEST_DEVICE_LIMITS.maxPageSize),
          device_name: optionalText('Part of a device_name.'),
          registration_id: optionalText('One registration_id.'),
        }),
      },
      answer: listAnswer,
      handler: async (req, { query }) => {
        const all = store.pushTestDevices
          .list(req.tenant.app.appKey)
          .filter(d => query.device_name === undefined || d.deviceName.includes(query.device_name))
          .filter(d => query.registration_id === undefined || d.registrationId === query.registration_id)
        const from = (query.page - 1) * query.page_size
        return {
          total: all.length,
          page: query.page,
          page_size: query.page_size,
          detail: all.slice(from, from + query.page_size).map(d => ({
            device_name: d.deviceName,
            device_model: d.platform,
            registration_id: d.registrationId,
            registration_time: formatLocal(d.registeredAt, config.timeZone),
            create_time: formatLocal(d.createdAt, config.timeZone),
          })),
        }
      },
    }),
  ]
}
