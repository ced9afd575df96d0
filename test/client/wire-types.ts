import type { z } from 'zod'
import type {
  App,
  AppDocument,
  AppPatch,
  AppSummary,
  AppsPage,
  Imported,
  Storage,
} from '../../client/src/app-types.js'
import type { PushSchedule, PushSent, Sign, SmsSchedule, Template } from '../../client/src/change-types.js'
import type { EVENT_TYPES } from '../../client/src/events.js'
import type {
  Callback,
  CallbackFilter,
  CallbackType,
  Code,
  Message,
  Push,
  Reply,
  Report,
  RequestEntry,
} from '../../client/src/list-types.js'
import type { Device, PushImage, PushTemplate, TestDevice } from '../../client/src/steer-types.js'
import type { pushScheduleItem, signItem, smsScheduleItem, templateItem } from '../../src/changes/items.js'
import type { items } from '../../src/items/items.js'
import type { appDocument, importedAnswer } from '../../src/sandbox/app/transfer.js'
import type { appView, storageView } from '../../src/sandbox/app/view.js'
import type { appItem, appsAnswer } from '../../src/sandbox/operator.js'
import type { pushDeviceSchemas } from '../../src/sandbox/push/device-schemas.js'
import type { pushImageSchema } from '../../src/sandbox/push/images.js'
import type { pushTemplateSchema } from '../../src/sandbox/push/templates.js'
import type { testDeviceSchema } from '../../src/sandbox/push/test-devices.js'
import type { appPatchSchema } from '../../src/seed/seed-file.js'
import type { CallbackState, CallbackType as ServerCallbackType } from '../../src/store/callbacks/outbox.js'
import type { EVENT_TYPES as SERVER_EVENT_TYPES } from '../../src/store/events/log.js'

// The client's types are written out (its declarations must stand alone: the server's modules
// bring Fastify, SQLite and the store with them), and tied here to the schemas the routes
// answer and take: `npm run typecheck` fails as soon as one differs from the other by a field.
// (The answers whose schemas are not exported are compared key by key in steering.test.ts.)

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
type Expect<T extends true> = T

export type Checks = [
  Expect<Equal<App, z.output<typeof appView>>>,
  Expect<Equal<Storage, z.output<typeof storageView>>>,
  Expect<Equal<AppPatch, z.input<typeof appPatchSchema>>>,
  Expect<Equal<Device, z.output<typeof pushDeviceSchemas.device>>>,
  Expect<Equal<PushImage, z.output<typeof pushImageSchema>>>,
  Expect<Equal<TestDevice, z.output<typeof testDeviceSchema>>>,
  Expect<Equal<PushTemplate, z.output<typeof pushTemplateSchema>>>,
  Expect<Equal<Message, z.output<typeof items.message>>>,
  Expect<Equal<Code, z.output<typeof items.code>>>,
  Expect<Equal<Push, z.output<typeof items.push>>>,
  Expect<Equal<PushSent, z.output<typeof items.pushSent>>>,
  Expect<Equal<Template, ReturnType<typeof templateItem>>>,
  Expect<Equal<Sign, ReturnType<typeof signItem>>>,
  Expect<Equal<SmsSchedule, ReturnType<typeof smsScheduleItem>>>,
  Expect<Equal<PushSchedule, ReturnType<typeof pushScheduleItem>>>,
  Expect<Equal<Callback, z.output<typeof items.callback>>>,
  Expect<Equal<Report, z.output<typeof items.report>>>,
  Expect<Equal<Reply, z.output<typeof items.reply>>>,
  Expect<Equal<RequestEntry, z.output<typeof items.request>>>,
  Expect<Equal<AppDocument, z.output<typeof appDocument>>>,
  Expect<Equal<Imported, z.output<typeof importedAnswer>>>,
  Expect<Equal<AppSummary, z.output<typeof appItem>>>,
  Expect<Equal<AppsPage, z.output<typeof appsAnswer>>>,
  Expect<Equal<(typeof EVENT_TYPES)[number], (typeof SERVER_EVENT_TYPES)[number]>>,
  Expect<Equal<CallbackType, ServerCallbackType>>,
  Expect<Equal<NonNullable<CallbackFilter['state']>, CallbackState>>,
]
