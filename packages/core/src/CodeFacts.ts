/**
 * What the document's machine-readable codes (a fiscal QR, an embedded e-invoice) say of a value: each code states
 * facts exactly (issuer and buyer tax ids, document number, issue date, total, currency, IBAN); a printed value of the
 * same concept either agrees with one of them or not. The concept of a field comes from its check (`Checks.checkOf`),
 * its role in the totals block (`Arithmetic.roleOf`), its type, and the words of its name, aliases and description.
 * Pure.
 */
import * as Checks from "./Checks.js"
import type { Verdict } from "./Confidence.js"
import type { CodeFacts, ReadCode } from "./Extraction.js"
import type { DetailedSimpleValue } from "./Field.js"
import { roleOf } from "./internal/arithmetic.js"
import { wordsOf } from "./internal/fieldWords.js"
import { compact } from "./internal/taxIds.js"
import type { SkillField } from "./Skill.js"

const allWords = (field: SkillField) => wordsOf(field).join(" | ")

// The buyer's side of a document, in the seven languages.
const BUYER =
  /\b(receptor|cliente|comprador|destinatario|buyer|customer|client|bill to|kunde|empfanger|acheteur|acquirente|klant|afnemer)\b/
// Dates that are not the issue date.
const OTHER_DATE =
  /\b(vencimiento|vto|due|expir\w*|cae|periodo|period|entrega|delivery|faellig\w*|echeance|scadenza|vervaldatum)\b/
// A document number's words: a number word, not the document's name alone ("Razón social de quien emite la factura").
const NUMBER = /\b(numero|number|nro|num|no|n[o°º]|folio|rechnungsnummer|rechnungsnr|nummer|nr|numer|factuurnummer)\b/
const CURRENCY = /\b(moneda|divisa|currency|wahrung|devise|valuta|munt|moeda)\b/

const lastNumber = (s: string) => {
  const groups = s.match(/\d+/g)
  return groups === null ? undefined : Number(groups[groups.length - 1])
}

/** A fact a code may state, by the name `CodeFacts` gives it. */
export type Concept = "issuerTaxId" | "buyerTaxId" | "documentNumber" | "issueDate" | "total" | "currency" | "iban"

/** The fact a field stands for, if a code could state it. */
export const conceptOf = (field: SkillField): Concept | undefined => {
  const words = allWords(field)
  const check = Checks.checkOf(field)
  if (check === "iban") return "iban"
  if (check !== undefined) return BUYER.test(words) ? "buyerTaxId" : "issuerTaxId"
  if (field.type === "date") return OTHER_DATE.test(words) ? undefined : "issueDate"
  if (roleOf(field) === "total") return "total"
  if (field.type === "string" && CURRENCY.test(words)) return "currency"
  if (field.type === "string" && NUMBER.test(words) && !BUYER.test(words)) return "documentNumber"
  return undefined
}

/** Whether a printed value and a stated fact are the same thing. */
const agrees = (concept: Concept, value: DetailedSimpleValue, fact: string | number): boolean => {
  switch (concept) {
    case "total":
      return typeof value.parsed === "number" && Math.abs(value.parsed - Number(fact)) < 0.005
    case "issueDate":
      return value.parsed === fact
    case "documentNumber":
      return lastNumber(value.literal) !== undefined && lastNumber(value.literal) === lastNumber(String(fact))
    case "currency":
      return compact(value.literal).includes(compact(String(fact)))
    default:
      return compact(value.literal) === compact(String(fact))
  }
}

const stated = (facts: CodeFacts, concept: Concept): string | number | null => facts[concept]

/** The first code that states the fact a field stands for, and that fact; `undefined` when none does. */
export const factFor = (
  field: SkillField,
  codes: ReadonlyArray<ReadCode>
): { readonly concept: Concept; readonly fact: string | number; readonly code: ReadCode } | undefined => {
  const concept = conceptOf(field)
  if (concept === undefined) return undefined
  for (const code of codes) {
    const fact = stated(code.facts, concept)
    if (fact !== null) return { concept, fact, code }
  }
  return undefined
}

/** The verdict of the codes on a value: agreed by one, or stated otherwise; none when no code states its concept. */
export const verdict = (
  field: SkillField,
  value: DetailedSimpleValue,
  codes: ReadonlyArray<ReadCode>
): Verdict<"code_mismatch"> | undefined => {
  const concept = conceptOf(field)
  if (concept === undefined) return undefined
  const stating = codes.flatMap((code) => {
    const fact = stated(code.facts, concept)
    return fact === null ? [] : [{ code, fact }]
  })
  if (stating.length === 0) return undefined
  const agreeing = stating.find(({ fact }) => agrees(concept, value, fact))
  if (agreeing !== undefined)
    return { passed: true, code: "code_mismatch", message: `the ${agreeing.code.kind} code states the same` }
  const first = stating[0]!
  return {
    passed: false,
    code: "code_mismatch",
    message: `printed ${value.literal}; the ${first.code.kind} code${first.code.page === null ? "" : ` on page ${first.code.page}`} states ${first.fact}`
  }
}
