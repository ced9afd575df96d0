import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Config, OperatorCredentials } from '../config.js'
import { StartRefusal } from '../errors.js'

// The operator of a sandbox that listens beyond loopback, SANDBOX_OPERATOR unset: no well-known
// password, since anyone who can reach the port would be the operator of every app. The first
// start generates one and prints it (run.ts), and keeps it beside the database, so that a restart
// (a new container on the same volume) keeps it too. `SANDBOX_OPERATOR` sets one of your own.

const USER = 'operator'

/** Where the generated password is kept: beside the database, as its `-holder` note is. */
export const operatorFileOf = (database: string) => `${database}-operator`

/** 24 characters of base64url: 144 random bits. */
const generate = () => randomBytes(18).toString('base64url')

/**
 * The config with its operator settled: as it was when SANDBOX_OPERATOR was set or the sandbox
 * listens on loopback only (config.ts), else the password kept at `<DB_PATH>-operator` (`kept`),
 * or a new one written there (`generated`: the only start that shows it). A `:memory:` sandbox
 * keeps nothing, so each of its starts generates one.
 */
export function settleOperator(config: Config): Config {
  if (config.operator !== undefined) return config
  const operator = config.database === ':memory:' ? fresh() : keptOrNew(operatorFileOf(config.database))
  return Object.freeze({ ...config, operator })
}

function fresh(): OperatorCredentials {
  return Object.freeze({ user: USER, password: generate(), from: 'generated' as const })
}

function keptOrNew(file: string): OperatorCredentials {
  const kept = read(file)
  if (kept) return Object.freeze({ ...kept, from: 'kept' as const })
  const made = fresh()!
  try {
    // The database's folder, made here first (store/engine/db.ts makes it too, and says why not).
    mkdirSync(dirname(file), { recursive: true })
    // `wx`: never over another process's file; 0600: only the sandbox's user reads it.
    writeFileSync(file, `${made.user}:${made.password}\n`, { flag: 'wx', mode: 0o600 })
  } catch (err) {
    // Another process starting on the same database wrote it first: its password is the one.
    const theirs = (err as { code?: unknown }).code === 'EEXIST' ? read(file) : undefined
    if (theirs) return Object.freeze({ ...theirs, from: 'kept' as const })
    throw new StartRefusal(
      `cannot keep the operator's generated password in ${file} (${(err as Error).message}): set SANDBOX_OPERATOR=user:password, or make that folder writable`,
    )
  }
  return made
}

/** The kept `user:password`, or undefined when there is none; a damaged file refuses the start. */
function read(file: string): { user: string; password: string } | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') return undefined
    throw new StartRefusal(
      `cannot read the operator's password kept in ${file} (${(err as Error).message}): fix its owner or mode, or set SANDBOX_OPERATOR=user:password`,
    )
  }
  const line = text.trim()
  const colon = line.indexOf(':')
  if (colon < 1 || colon === line.length - 1 || line.includes('\n'))
    throw new StartRefusal(
      `${file} does not hold the operator's user:password: remove it (a new password is generated) or set SANDBOX_OPERATOR=user:password`,
    )
  return { user: line.slice(0, colon), password: line.slice(colon + 1) }
}

/** The start line's words on the operator; never a password that came from the setting. */
export function describeOperator(config: Config): { message: string; fields: Record<string, unknown> } {
  const op = config.operator
  const host = config.host
  if (op === null || op === undefined)
    return { message: 'no operator (SANDBOX_OPERATOR=off)', fields: { operator: null } }
  const fields = { operator: op.user, operatorFrom: op.from ?? 'setting' }
  switch (op.from) {
    case 'loopback default':
      return {
        message: `operator ${op.user}:${op.password}, the default while HOST ${host} is loopback; set SANDBOX_OPERATOR before listening beyond this machine`,
        fields,
      }
    case 'generated':
      return {
        message:
          config.database === ':memory:'
            ? `operator ${op.user}:${op.password}, generated for HOST ${host} (DB_PATH is :memory:: a new one each start); set SANDBOX_OPERATOR to choose it`
            : `operator ${op.user}:${op.password}, generated for HOST ${host} and kept in ${operatorFileOf(config.database)}: shown this once; set SANDBOX_OPERATOR to choose it`,
        fields: { ...fields, operatorPassword: op.password },
      }
    case 'kept':
      return {
        message: `operator ${op.user}, its password generated at the first start and kept in ${operatorFileOf(config.database)}`,
        fields,
      }
    default:
      return { message: `operator ${op.user}, from SANDBOX_OPERATOR`, fields }
  }
}
