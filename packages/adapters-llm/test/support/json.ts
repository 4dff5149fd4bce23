/** Reading recorded request bodies (untyped JSON) in assertions without casts. */

/** The member at `path` (object keys or array indexes), or undefined. */
export const at = (value: unknown, ...path: ReadonlyArray<string | number>): unknown => {
  let current: unknown = value
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined
    current = Reflect.get(current, key)
  }
  return current
}

/** The value as an array (empty when it is not one). */
export const list = (value: unknown): ReadonlyArray<unknown> => (Array.isArray(value) ? value : [])

/** The value as a string (empty when it is not one). */
export const text = (value: unknown): string => (typeof value === "string" ? value : "")
