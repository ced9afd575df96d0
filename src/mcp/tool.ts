import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { Session } from './session.js'

// One tool of the MCP server: named for what a test author wants, a one-line description saying
// when to use it, its arguments and its answer as schemas (the answer's is the control plane's own:
// shapes.ts), what it does (calls of the control plane, as the typed client makes them), and the
// short text a person or an agent reads in place of the structured answer.

export interface Tool<I extends z.ZodRawShape = z.ZodRawShape, O extends z.ZodRawShape = z.ZodRawShape> {
  name: string
  title: string
  /** One line: what it answers, and when to use it. */
  description: string
  input: I
  output: O
  /** What a client may assume: read-only, destructive, idempotent; never the open world. */
  annotations: Omit<ToolAnnotations, 'title' | 'openWorldHint'>
  /** Only the operator's credentials have it (list_apps). */
  operatorOnly?: true
  run(session: Session, args: z.output<z.ZodObject<I>>): Promise<z.output<z.ZodObject<O>>>
  /** A few lines saying what the answer holds: the ids, codes, reasons an agent reads first. */
  text(answer: z.output<z.ZodObject<O>>, args: z.output<z.ZodObject<I>>): string
}

/** A tool, typed by its own schemas; the server's list takes any. */
export const tool = <I extends z.ZodRawShape, O extends z.ZodRawShape>(t: Tool<I, O>): Tool =>
  t as unknown as Tool

/** The app a call acts on: every tool that reads or steers one app takes it. */
export const appKeyArg = {
  app_key: z
    .string()
    .min(1)
    .optional()
    .describe(
      "The app to act on (its appKey). An app's credentials act on their own app only; the operator's on any, named here (or the default app it was started with).",
    ),
}

/** Seqs: `after` one, only newer items (each list's `next_after` says where to go on from). */
export const afterArg = z
  .number()
  .int()
  .min(0)
  .optional()
  .describe('Only items with a larger seq: the `seq` of the last item you saw, or a `next_after`.')

export const limitArg = (max: number, fallback: number) =>
  z.number().int().min(1).max(max).default(fallback).describe(`How many, at most (1–${max}).`)

/** A moment on the app's clock, as the lists read it. */
export const timeArg = (what: string) =>
  z
    .union([z.string(), z.number()])
    .optional()
    .describe(`${what}, on the app's clock: ISO-8601 (at least yyyy-mm-dd) or epoch milliseconds.`)

/** Drops the keys whose value is undefined (a list's query). */
export const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>

/** One item of a list on one line, for the text rendering. */
export const oneLine = (value: unknown, max = 200): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > max ? `${text.slice(0, max)}…` : text
}
