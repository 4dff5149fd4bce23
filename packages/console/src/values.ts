/** The values of a result, flattened with a path each: what selection, highlighting and word look-ups work on. */
import { type CatalogValue, type Field, isCatalog, isField, isSimple, type SimpleValue } from "./types.js"

/** One value of the result: its path (`total`, `items.2.price`), a readable label and its words. */
export interface Entry {
  readonly path: string
  readonly label: string
  readonly value: SimpleValue | CatalogValue
  readonly wordIds: ReadonlyArray<string>
}

const entry = (path: string, label: string, value: SimpleValue | CatalogValue): Entry => ({
  path,
  label,
  value,
  wordIds: isSimple(value) ? (value.word_ids ?? []) : []
})

/** Every value of the fields, depth first in the fields' order. */
export const entries = (fields: ReadonlyArray<Field>, prefix = "", labelPrefix = ""): Array<Entry> => {
  const out: Array<Entry> = []
  for (const field of fields) {
    const path = `${prefix}${field.name}`
    const label = `${labelPrefix}${field.name}`
    const value = field.value
    if (value === null) continue
    if (isSimple(value) || isCatalog(value)) out.push(entry(path, label, value))
    else if (value.every(isField)) out.push(...entries(value as ReadonlyArray<Field>, `${path}.`, `${label} › `))
    else {
      value.forEach((item, i) => {
        if (isSimple(item) || isCatalog(item)) out.push(entry(`${path}.${i}`, `${label} ${i + 1}`, item))
        else if (!isField(item)) {
          for (const [name, sub] of Object.entries(item)) {
            out.push(entry(`${path}.${i}.${name}`, `${label} ${i + 1} › ${name}`, sub))
          }
        }
      })
    }
  }
  return out
}

/** Word id → the entries it supports. */
export const supportsOf = (all: ReadonlyArray<Entry>): Map<string, Array<Entry>> => {
  const map = new Map<string, Array<Entry>>()
  for (const e of all) for (const id of e.wordIds) map.set(id, [...(map.get(id) ?? []), e])
  return map
}

/** Whether a value should be looked at by a person: no confidence found, or under 0.7, or a check failed. */
export const doubtful = (value: SimpleValue | CatalogValue): boolean =>
  value.confidence !== undefined && (value.confidence === null || value.confidence < 0.7)
