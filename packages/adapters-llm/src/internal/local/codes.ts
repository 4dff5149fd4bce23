/**
 * Fields filled from the document's machine-readable codes (a fiscal QR, an embedded e-invoice: `ReadDocument.codes`,
 * decoded by the reader): a code states its facts exactly where the print is read with OCR's guesses, so a field
 * whose name, aliases, description or type say it is one of those facts (issuer or buyer tax id, document number,
 * issue date, total, currency, IBAN: `CodeFacts.conceptOf`) takes the code's value. Tax ids, IBANs and totals are
 * looked for on the page (so the literal is as printed and grounding finds it, and an OCR misreading gives way);
 * numbers and dates have too many printed forms (a point of sale of four or five digits, day or month first) to be
 * matched safely, so their code's value fills the field only where the rules find nothing. Certainty `confirmed`.
 */
import { CodeFacts, type Document, type Skill } from "@legible/core"
import { type Found, found } from "./evidence.js"
import { amounts } from "./patterns.js"

const compact = (s: string) => s.toUpperCase().replace(/[^0-9A-Z]/g, "")

/** Runs of one, then two, then three neighbouring words of each line, as printed (the shortest found first). */
const runs = function* (document: Document.ReadDocument): Generator<string> {
  for (let n = 1; n <= 3; n++)
    for (const page of document.pages)
      for (const line of page.lines)
        for (let i = 0; i + n <= line.words.length; i++)
          yield line.words
            .slice(i, i + n)
            .map((w) => w.word)
            .join(" ")
}

/** The printed form of a fact, where the page prints it. */
const printed = (
  document: Document.ReadDocument,
  concept: CodeFacts.Concept,
  fact: string | number
): string | undefined => {
  switch (concept) {
    case "total":
      for (const page of document.pages)
        for (const line of page.lines) {
          const amount = amounts(line.words.map((w) => w.word).join(" ")).find(
            (a) => Math.abs(a.value - Number(fact)) < 0.005
          )
          if (amount !== undefined) return amount.text
        }
      return undefined
    case "issuerTaxId":
    case "buyerTaxId":
    case "iban":
      for (const run of runs(document)) if (compact(run) === compact(String(fact))) return run
      return undefined
    default:
      return undefined
  }
}

/**
 * The value the document's codes give a simple field, with its certainty and whether the page prints it (then the
 * literal is the printed form); `undefined` when no code states it.
 */
export const fromCodes = (
  field: Skill.SkillField,
  document: Document.ReadDocument
): { readonly value: Found; readonly printed: boolean } | undefined => {
  if (field.isList || field.type === "object" || field.type === "catalog" || field.type === "boolean") return undefined
  const stated = CodeFacts.factFor(field, document.codes ?? [])
  if (stated === undefined) return undefined
  const onPage = printed(document, stated.concept, stated.fact)
  return { value: found(onPage ?? String(stated.fact), "confirmed"), printed: onPage !== undefined }
}
