import type * as A from '../../client/src/app-types.js'
import type * as C from '../../client/src/change-types.js'
import type { EVENT_TYPES, EventType, ReviewDecision, SandboxEvent } from '../../client/src/events.js'
import type * as L from '../../client/src/list-types.js'
import type * as S from '../../client/src/steer-types.js'
import type { EventData, ItemOf } from '../../client/src/wire.js'
import type { CallbackState, CallbackType as ServerCallbackType } from '../../src/store/callbacks/outbox.js'
import type { EVENT_TYPES as SERVER_EVENT_TYPES } from '../../src/store/events/log.js'

// The client's types are all read out of the generated description (client/src/openapi.ts, from
// the routes' zod schemas; test/client/generated.test.ts keeps it current). What can still go
// wrong is a schema the document cannot show (a hand-written reader with no declared JSON
// Schema): its type degrades to `unknown` and the client would accept anything. `npm run
// typecheck` fails here as soon as one does.

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
type Expect<T extends true> = T
/** `any`, `unknown` or `never`: a type the document did not say. */
type Loose<T> = 0 extends 1 & T ? true : unknown extends T ? true : [T] extends [never] ? true : false
/** The keys of what a test sends whose type the document did not say. */
type LooseKeys<T> = { [K in keyof T]-?: unknown extends T[K] ? K : never }[keyof T]
type Said<T> = Loose<T> extends false ? (LooseKeys<T> extends never ? true : false) : false
type Settings = NonNullable<A.AppPatch['settings']>

export type Sent = [
  Expect<Said<A.AppPatch>>,
  Expect<Said<Settings>>,
  Expect<Said<NonNullable<A.AppPatch['developer']>>>,
  Expect<Said<A.FaultInput>>,
  Expect<Said<NonNullable<A.FaultInput['match']>>>,
  Expect<Said<A.AppsFilter>>,
  Expect<Said<S.NewDevice>>,
  Expect<Said<S.PushTemplateInput>>,
  Expect<Equal<S.Decision, 1 | 2>>,
  Expect<Said<L.Window>>,
  Expect<Said<L.MessageFilter>>,
  Expect<Said<L.CodeFilter>>,
  Expect<Said<L.PushFilter>>,
  Expect<Said<L.CallbackFilter>>,
  Expect<Said<L.ReportFilter>>,
  Expect<Said<L.ReplyFilter>>,
  Expect<Said<L.RequestFilter>>,
  Expect<Equal<L.CallbackType, ServerCallbackType>>,
  Expect<Equal<NonNullable<L.CallbackFilter['state']>, CallbackState>>,
]

/** Every event type's data is described (none `unknown`), and the client knows every type. */
type LooseEvents = { [T in EventType]: Loose<EventData<T>> extends true ? T : never }[EventType]
export type Events = [
  Expect<Equal<LooseEvents, never>>,
  Expect<Equal<(typeof EVENT_TYPES)[number], (typeof SERVER_EVENT_TYPES)[number]>>,
  Expect<Equal<EventType, ItemOf<'getSandboxEvents', 'events'>['type']>>,
  Expect<Equal<Extract<SandboxEvent, { type: 'sms.sent' }>['data'], L.Message>>,
  Expect<Equal<Extract<SandboxEvent, { type: 'clock.moved' }>['data'], A.Clock>>,
  // platform, audience, notification and message are as the app sent them: any JSON.
  Expect<Equal<LooseKeys<C.PushSent>, 'platform' | 'audience' | 'notification' | 'message'>>,
  Expect<Said<C.CodeVerified>>,
  Expect<Said<C.TemplateChanged>>,
  Expect<Said<C.SignChanged>>,
  Expect<Said<C.ScheduleChanged>>,
  Expect<Said<C.DeviceChanged>>,
  Expect<Said<C.FaultChanged>>,
  Expect<Said<ReviewDecision>>,
]
