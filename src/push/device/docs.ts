import { z } from 'zod'
import type { RouteDocs } from '../../openapi/route-docs.js'
import { deviceErrors as e } from '../errors.js'

// The device host (jpush-api.md §7): devices, tags, aliases. Writes answer 200 `{}`.

const rid = z.string().describe('A registration_id of the app.')
const done = z.object({}).describe('Done: `{}` (an empty 200 hangs jpush-async).')
const idChanges = z
  .object({
    add: z.array(z.string()).max(1000).optional(),
    remove: z.array(z.string()).max(1000).optional(),
  })
  .describe('registration_ids to add and remove (at least one).')
const platforms = z.object({
  platform: z.string().describe('Comma-separated: android, ios, hmos…; absent: every platform.').optional(),
})
const badRid = e.invalid("registration_id '1a0018970a8b0fd6c0e_x' is invalid")

export const readDeviceDocs: RouteDocs = {
  summary: "A device's tags, alias and mobile (jpush-api.md §7)",
  params: z.object({ registration_id: rid }),
  answers: {
    200: z.object({ tags: z.array(z.string()), alias: z.string().nullable(), mobile: z.string().nullable() }),
  },
  errors: [badRid],
}

export const updateDeviceDocs: RouteDocs = {
  summary: "Change a device's tags, alias or mobile (jpush-api.md §7)",
  params: z.object({ registration_id: rid }),
  body: z.object({
    tags: z
      .union([z.literal(''), z.object({ add: z.array(z.string()), remove: z.array(z.string()) }).partial()])
      .describe('"" clears them; at most 100 tags and 1000 bytes per operation.')
      .optional(),
    alias: z.string().describe('"" removes it; at most 10 devices per alias (7015).').optional(),
    mobile: z.string().describe('"" clears it.').optional(),
  }),
  answers: { 200: done },
  errors: [badRid, e.invalid("tag 'a b' is invalid"), e.invalid('mobile is invalid'), e.aliasFull()],
}

export const deviceStatusDocs: RouteDocs = {
  summary: 'Which devices are online (jpush-api.md §7)',
  body: z.object({ registration_ids: z.array(z.string()).min(1).max(1000) }),
  answers: {
    200: z.record(
      z.string(),
      z.object({
        online: z.boolean(),
        last_online_time: z.string().describe('yyyy-MM-dd HH:mm:ss').optional(),
      }),
    ),
  },
  errors: [e.invalid('registration_ids must be a non-empty array')],
}

export const tagsDocs: RouteDocs = {
  summary: "The app's tags (jpush-api.md §7)",
  answers: { 200: z.object({ tags: z.array(z.string()) }) },
}

export const tagMemberDocs: RouteDocs = {
  summary: 'Whether a device carries a tag (jpush-api.md §7)',
  params: z.object({ tag: z.string(), registration_id: rid }),
  answers: { 200: z.object({ result: z.boolean() }) },
  errors: [badRid],
}

export const updateTagDocs: RouteDocs = {
  summary: 'Add devices to a tag, or remove them (jpush-api.md §7)',
  params: z.object({ tag: z.string() }),
  body: z.object({ registration_ids: idChanges }),
  answers: { 200: done },
  errors: [
    e.invalid('registration_ids has nothing to add or remove'),
    e.someInvalid(['1a0018970a8b0fd6c0e_x']),
  ],
}

export const deleteTagDocs: RouteDocs = {
  summary: 'Remove a tag from every device (jpush-api.md §7)',
  params: z.object({ tag: z.string() }),
  querystring: platforms,
  answers: { 200: done },
  errors: [e.invalid("platform 'x' is invalid")],
}

export const readAliasDocs: RouteDocs = {
  summary: 'The devices bound to an alias (jpush-api.md §7)',
  params: z.object({ alias: z.string() }),
  querystring: platforms.extend({
    new_format: z.literal('true').describe("Answer `data` with each device's platform.").optional(),
  }),
  answers: {
    200: z.union([
      z.object({ registration_ids: z.array(z.string()) }),
      z.object({
        data: z.array(
          z.object({ registration_id: z.string(), platform: z.string(), last_online_date: z.string() }),
        ),
      }),
    ]),
  },
  errors: [e.invalid("alias 'a b' is invalid"), e.invalid("platform 'x' is invalid")],
}

export const deleteAliasDocs: RouteDocs = {
  summary: 'Unbind an alias from every device (jpush-api.md §7)',
  params: z.object({ alias: z.string() }),
  querystring: platforms,
  answers: { 200: done },
  errors: [e.invalid("alias 'a b' is invalid")],
}

export const unbindAliasDocs: RouteDocs = {
  summary: 'Unbind some devices from an alias (jpush-api.md §7)',
  params: z.object({ alias: z.string() }),
  body: z.object({ registration_ids: idChanges.pick({ remove: true }) }),
  answers: { 200: done },
  errors: [
    e.invalid('registration_ids has nothing to add or remove'),
    e.someInvalid(['1a0018970a8b0fd6c0e_x']),
  ],
}
