/**
 * How a document was paid, for a field that asks for it (`forma_pago`, `Payment method`, `Zahlungsart`) where no
 * label names it: the words of the first tender row under the totals (`TARJETA BANCARIA  5,40`, `EFECTIVO  10,00`,
 * `Kartenzahlung  8,48`, `CB EMV  15,60`), a means of paying opening the row (or after a word of paying) and an
 * amount after it.
 */
import { type Found, found } from "./evidence.js"
import { fieldWords, type Target } from "./labels.js"
import type { Layout } from "./layout.js"
import { amounts } from "./patterns.js"
import { rowTokens } from "./phrases.js"
import { endsItems } from "./receiptLines.js"
import { PAYING_WORDS, TENDER_WORDS } from "./vocabulary.js"

// A field's words for a payment (`pago`, `Payment`, `paiement`) and for its kind (`forma`, `method`, `Art`), or one
// word that says both (`Zahlungsart`, `betaalwijze`).
const PAYMENT = new Set(["pago", "payment", "paiement", "pagamento", "zahlung", "betaling", "pay"])
const KIND = new Set([
  "forma",
  "metodo",
  "medio",
  "modo",
  "method",
  "type",
  "mode",
  "modalita",
  "means",
  "art",
  "wijze"
])
const BOTH = new Set(["zahlungsart", "zahlart", "zahlungsweise", "zahlungsmethode", "betaalwijze", "betaalmethode"])

/** Whether a field asks how the document was paid. */
export const asksForPayment = (target: Target): boolean => {
  const words = [...fieldWords(target)]
  return words.some((w) => BOTH.has(w)) || (words.some((w) => PAYMENT.has(w)) && words.some((w) => KIND.has(w)))
}

// The tender's words that name the act of paying or handing over (`Paid`, `Pagamento`, `Entregado`, `Gegeben`); the
// others, a means.
const PAYING = new Set([...PAYING_WORDS, ...["entregado", "recibido", "tendered", "gegeben", "geg", "entrega"]])
const MEANS = new Set(TENDER_WORDS.filter((w) => !PAYING.has(w)))

// A currency's code or sign closing a tender's words (`BAR EUR`, `EFECTIVO S/`).
const CURRENCY_AFTER = /(?:\s+(?:EUR|USD|GBP|CHF|MXN|ARS|CLP|COP|PEN|BRL|S\/|R\$|US\$|\$|€|£))+$/iu

// The words between paying and its means (`Paid by VISA`, `Pagado con tarjeta`, `Bezahlt mit Karte`).
const BY = new Set(["by", "with", "con", "en", "mit", "per", "par", "avec", "com", "met", "via"])

/**
 * The words of the first row under the totals that a means of paying opens, or that a word of paying opens before
 * the means (`PAGAMENTO CONTANTE`, `Gegeben EC-Karte`, `Paid by VISA`: the means alone), before its amount.
 */
export const paymentMethod = (layout: Layout): Found | null => {
  const start = layout.rows.findIndex(endsItems)
  if (start < 0) return null
  for (const row of layout.rows.slice(start + 1)) {
    const amount = amounts(row.text).find((a) => a.decimals)
    if (amount === undefined) continue
    const before = rowTokens(row).filter((t) => t.end <= amount.start)
    const paying = before[0] !== undefined && PAYING.has(before[0].text)
    const first = paying ? before.slice(1).find((t) => !BY.has(t.text)) : before[0]
    if (first === undefined || !MEANS.has(first.text)) continue
    const words = row.text
      .slice(first.start, amount.start)
      .replace(/[\s:.-]+$/u, "")
      .replace(CURRENCY_AFTER, "")
      .replace(/\s+/g, " ")
    if (/\p{L}{2}/u.test(words)) return found(words, "layout")
  }
  return null
}
