import type { operations } from './openapi.js'

// Reading the generated description of the control plane (openapi.ts, `npm run client:types`):
// an operation's answer, its body, the items of its list. The client's named types are these,
// so a field the server adds or changes reaches them when the file is generated again.

type Json<R> = R extends { content: { 'application/json': infer T } } ? T : never
type Success<R> = R extends { 200: infer A } ? A : R extends { 201: infer A } ? A : never

/** The JSON an operation answers on success. */
export type Answer<O extends keyof operations> = Json<Success<operations[O]['responses']>>

/** The JSON body an operation takes. */
export type Body<O extends keyof operations> = operations[O] extends {
  requestBody?: infer B
}
  ? Json<NonNullable<B>>
  : never

/** One item of a list an operation answers (`{ messages: Message[] }` → Message). */
export type ItemOf<O extends keyof operations, K extends keyof Answer<O>> =
  Answer<O>[K] extends Array<infer T> ? T : never

/** The query an operation takes (its filters). */
export type Query<O extends keyof operations> = NonNullable<operations[O]['parameters']['query']>

/** An app-clock or real time as the client takes it: ISO-8601 text, epoch milliseconds or a Date. */
export type Time = string | number | Date

/** A query whose time fields (text on the wire) the client also takes as epoch ms or a Date. */
export type WithTimes<Q, K extends keyof Q> = Omit<Q, K> & { [P in K]?: Time }

/** A list's query: its `since` and `until` (app clock) as any Time. */
export type ListQuery<O extends keyof operations> = WithTimes<Query<O>, ('since' | 'until') & keyof Query<O>>

type EventItem = ItemOf<'getSandboxEvents', 'events'>

/** An event type's `data`, as the document's GET /_sandbox/events answer says it by `type`. */
export type EventData<T extends EventItem['type']> = Extract<EventItem, { type: T }>['data']
