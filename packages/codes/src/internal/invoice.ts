import type { Party, Problem, TaxId, Totals } from "./schema.js"
import { decimal, type Problems } from "./text.js"
import { at, type Element } from "./xml.js"

export const emptyTotals: Totals = { lineTotal: null, taxBasis: null, tax: null, grandTotal: null, duePayable: null }

/** A party; its `taxId` is the VAT number (CII `VA`, UBL `VAT`) when given, else the first id. */
export const party = (name: string | null, taxIds: ReadonlyArray<TaxId>): Party => ({
  name,
  taxId: (taxIds.find((id) => /^(VA|VAT)$/i.test(id.scheme ?? "")) ?? taxIds[0])?.value ?? null,
  taxIds
})

/** A decimal element's value (at a path under `element`); a non-number is a problem and null. */
export const amountAt = (
  element: Element | undefined,
  problems: Problems,
  ...path: ReadonlyArray<string>
): number | null => {
  const target = at(element, ...path)
  const text = target?.text.trim()
  if (target === undefined || text === undefined || text === "") return null
  const value = decimal(text)
  if (value === null) problems.add("wrong_type", `${target.local} ${text} is not a number`, target.local)
  return value
}

/** The same problem is reported once (a damaged amount repeated on every line would flood the list). */
export const problemsOf = (problems: Problems): Array<Problem> => {
  const seen = new Set<string>()
  return problems.list.filter((problem) => {
    const key = `${problem.kind}|${problem.member}|${problem.detail}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
