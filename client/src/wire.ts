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
