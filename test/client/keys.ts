// For the answers whose schemas the routes keep to themselves (test/client/wire-types.ts compares
// the others at compile time): the client type's keys, each named once (the compiler refuses a
// missing one or one too many), to compare with what the sandbox answered.

export const keysOf = <T>(keys: { [K in keyof Required<T>]: true }): string[] => Object.keys(keys).sort()

export const keysIn = (answer: object): string[] => Object.keys(answer).sort()

/** The members of a union of strings, each named once (the compiler refuses a missing one). */
export const valuesOf = <U extends string>(values: { [K in U]: true }): string[] => Object.keys(values).sort()
