import type { z } from 'zod'
import type { AppPatch, FaultInput } from '../../client/src/app-types.js'
import type { PushSent } from '../../client/src/change-types.js'
import type { EVENT_TYPES } from '../../client/src/events.js'
import type { CallbackFilter, CallbackType } from '../../client/src/list-types.js'
import type { NewDevice } from '../../client/src/steer-types.js'
import type { items } from '../../src/items/items.js'
import type { faultSchema } from '../../src/sandbox/faults/input.js'
import type { pushDeviceSchemas } from '../../src/sandbox/push/device-schemas.js'
import type { appPatchSchema } from '../../src/seed/seed-file.js'
import type { CallbackState, CallbackType as ServerCallbackType } from '../../src/store/callbacks/outbox.js'
import type { EVENT_TYPES as SERVER_EVENT_TYPES } from '../../src/store/events/log.js'

// The client's answers are generated from the OpenAPI document (client/src/openapi.ts,
// test/client/generated.test.ts keeps it current). What is still written out by hand — what a
// test sends, and the events' data, which no operation answers — is tied here to the server's
// schemas: `npm run typecheck` fails as soon as one differs from the other.

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
type Expect<T extends true> = T
/** Everything the client lets a test write is something the route takes. */
type Takes<Input, Schema extends z.ZodType> = Input extends z.input<Schema> ? true : false

export type Checks = [
  Expect<Equal<AppPatch, z.input<typeof appPatchSchema>>>,
  Expect<Takes<FaultInput, typeof faultSchema>>,
  Expect<Takes<NewDevice, typeof pushDeviceSchemas.newDevice>>,
  Expect<Equal<PushSent, z.output<typeof items.pushSent>>>,
  Expect<Equal<(typeof EVENT_TYPES)[number], (typeof SERVER_EVENT_TYPES)[number]>>,
  Expect<Equal<CallbackType, ServerCallbackType>>,
  Expect<Equal<NonNullable<CallbackFilter['state']>, CallbackState>>,
]
