/**
 * The page's language and the marks it allows (`language.ts`), on lines as the recognizer read them: the English
 * inventions of the FUNSD and SROIE runs, Spanish lines with ñ and accents, a German receipt, a French invoice.
 */
import { describe, expect, it } from "@effect/vitest"
import type { CtcChar } from "../../src/internal/ocr/ctc.js"
import {
  decideLanguages,
  type LanguageDecision,
  languageScores,
  profileWords,
  readDoubles,
  ruleMarks,
  settleLetters
} from "../../src/internal/ocr/language.js"
import type { Lexicon } from "../../src/internal/ocr/lexicon.js"

const chars = (text: string): Array<CtcChar> =>
  Array.from(text).map((t, i) => ({ text: t, first: 2 * i, last: 2 * i + 1, prob: 0.9 }))

const text = (cs: ReadonlyArray<CtcChar>): string => cs.map((c) => c.text).join("")

const decide = (lines: ReadonlyArray<string>): LanguageDecision => decideLanguages(lines.flatMap(profileWords))

/** The page's lines with their marks ruled by the page's language, as `recognizePage` does. */
const rule = (lines: ReadonlyArray<string>, lexicon?: Lexicon): Array<string> => {
  const decision = decide(lines)
  return lines.map((line) => text(ruleMarks(chars(line), decision, lexicon)))
}

// A Malaysian receipt as read, with the marks the recognizer invented (SROIE).
const sroieReceipt = [
  "SANYÜ STATIONERY SHOP",
  "NO. 31G&33G, JALAN SETIA INDAH X ,U13/X",
  "40170 SETIA ALAM SELAÑGOR",
  "ÁIK HUÁT HÁRUWÁRE ENTERPRISE (SETIA ALAM) SDÑ BHD",
  "AEÒN CO. (M) BHD TAMÁN MALURI",
  "TAX INVOICE",
  "TOTAL AMOUNT: 12.00 CASH 50.00 CHANGE 38.00",
  "THANK YOU PLEASE COME AGAIN"
]

// An English form as read (FUNSD).
const funsdForm = [
  "Please note that this wíll be the final report of the project.",
  "Oíl and tobacco: the results of the tests are attached to this memo.",
  "Signature of the supervisor, date and address"
]

const spanishInvoice = [
  "FACTURA Nº 0005-00011643",
  "Señor Muñoz, el importe de la factura es de 1.250,00 € con IVA incluido.",
  "AZÚCAR BLANCO 1 KG 1,25",
  "PAÑUELOS DE PAPEL 0,99",
  "Gracias por su compra. ¿Necesita ayuda? Llame al teléfono del cliente."
]

const germanReceipt = [
  "Vielen Dank für Ihren Einkauf",
  "Summe EUR 7,16",
  "zu zahlen 7,16",
  "Rückgeld 2,84",
  "Bär Brötchen Käse MwSt 7 % auf die Summe"
]

const frenchInvoice = [
  "Facture n° 2024-118 : montant à payer avant le 15 mars",
  "Prix unitaire hors TVA, reçu pour la période de décembre",
  "Merci de votre confiance et à bientôt dans nos magasins"
]

describe("decideLanguages", () => {
  it("tells English on a receipt and a form, from their function words, marks invented or not", () => {
    expect(decide(sroieReceipt).languages).toEqual(["en"])
    expect(decide(funsdForm).languages).toEqual(["en"])
  })

  it("tells Spanish, German and French pages", () => {
    expect(decide(spanishInvoice).languages).toEqual(["es"])
    expect(decide(germanReceipt).languages).toEqual(["de"])
    expect(decide(frenchInvoice).languages).toEqual(["fr"])
  })

  it("tells a Portuguese till receipt by its own words, its thanks worn off", () => {
    // A worn scan of a receipt from Coimbra: "Talão de compra" and "Contribuinte" say Portuguese, where "compra"
    // alone (Spanish too) and the shared "DE" had made the page Spanish and its "PÃO" a "PÁO".
    const receipt = [
      "MERCEARIA SERVICOS",
      "Contribuinte: 917663067",
      "Telefone 753 874 632",
      "Talao de compra",
      "SUMO DE LARANJA 25,88",
      "PAO DE FORMA 72,40",
      "LEITE MEIO GORDO 1,55",
      "Total: 143,08"
    ]
    expect(decide(receipt).languages).toEqual(["pt"])
  })

  it("tells nothing from a line of names and codes, nor from one shared word", () => {
    expect(decide(["40170 SETIA ALAM SELANGOR"]).languages).toEqual([])
    expect(decide(["DE LA CRUZ 31G"]).languages).toEqual([])
  })

  it("counts labels that many languages print (NO., TEL, TOTAL) for none", () => {
    const scores = languageScores(profileWords("NO. 31G, Nº 5 TEL 03-1234 FAX TOTAL 12.00 IVA"))
    expect([...scores.values()].every((score) => score === 0)).toBe(true)
  })
})

describe("ruleMarks", () => {
  it("takes off every mark an English page does not print", () => {
    expect(rule(sroieReceipt).slice(0, 5)).toEqual([
      "SANYU STATIONERY SHOP",
      "NO. 31G&33G, JALAN SETIA INDAH X ,U13/X",
      "40170 SETIA ALAM SELANGOR",
      "AIK HUAT HARUWARE ENTERPRISE (SETIA ALAM) SDN BHD",
      "AEON CO. (M) BHD TAMAN MALURI"
    ])
    expect(rule(funsdForm).slice(0, 2)).toEqual([
      "Please note that this will be the final report of the project.",
      "Oil and tobacco: the results of the tests are attached to this memo."
    ])
  })

  it("keeps what Spanish writes, names in no word list included, and ¿ ¡ º", () => {
    expect(rule(spanishInvoice)).toEqual(spanishInvoice)
  })

  it("takes off a mark Spanish does not write, to the likeliest letter Spanish writes", () => {
    const page = decide(spanishInvoice)
    expect(text(ruleMarks(chars("útiìl"), page, undefined))).toBe("útiil")
    const read: Array<CtcChar> = [
      {
        text: "à",
        first: 0,
        last: 1,
        prob: 0.6,
        alternatives: [
          { text: "a", prob: 0.3 },
          { text: "á", prob: 0.5 }
        ]
      }
    ]
    expect(text(ruleMarks(read, page, undefined))).toBe("á")
  })

  it("keeps umlauts on a German page and French accents on a French page", () => {
    expect(rule(germanReceipt)).toEqual(germanReceipt)
    expect(rule(frenchInvoice)).toEqual(frenchInvoice)
    expect(text(ruleMarks(chars("Summé"), decide(germanReceipt), undefined))).toBe("Summe")
  })

  it("on a page of no known language keeps a marked word only where the lexicon lists it", () => {
    const lexicon: Lexicon = { has: (word) => ["azúcar", "AZÚCAR"].includes(word) }
    expect(rule(["AZÚCAR 1,25", "SELAÑGOR 40170"], lexicon)).toEqual(["AZÚCAR 1,25", "SELANGOR 40170"])
    // Without a lexicon (the Chinese recognizer's default), such a page is read as it was.
    expect(rule(["SELAÑGOR 40170"])).toEqual(["SELAÑGOR 40170"])
  })
})

describe("settleLetters", () => {
  // Each letter read at 0.4, its marks summed at 0.98 (`withLetters`): the letter is sure, its mark is not.
  const doubted = (line: string): Array<CtcChar> =>
    chars(line).map((ch) => (/\p{L}/u.test(ch.text) ? { ...ch, prob: 0.4, letter: 0.98 } : ch))
  const letters = (cs: ReadonlyArray<CtcChar>) => cs.map((c) => c.letter ?? c.prob)
  const listed: Lexicon = { has: (word) => ["praça", "calle"].includes(word.toLowerCase()) }

  it("keeps a letter's summed marks where the page's languages write no mark on it (an English page)", () => {
    const settled = settleLetters(doubted("JALAN 53"), decide(sroieReceipt), undefined)
    expect(letters(settled)).toEqual([0.98, 0.98, 0.98, 0.98, 0.98, 0.9, 0.9, 0.9])
  })

  it("keeps them on a word the page's lists hold as read; elsewhere the mark's doubt is the word's", () => {
    const page = decide(frenchInvoice)
    // `PRAÇA` listed: settled. `BATIMENT` (printed `BÂTIMENT`) and a name are in no list, on a page that writes `â`.
    expect(letters(settleLetters(doubted("PRAÇA"), page, listed))).toEqual([0.98, 0.98, 0.98, 0.98, 0.98])
    // Only the letters a language of the page marks: French writes no mark on `b`, `m`, `n`, `t`; `a`, `i`, `e` yes.
    expect(letters(settleLetters(doubted("BATIMENT"), page, listed))).toEqual([
      0.98, 0.4, 0.98, 0.4, 0.98, 0.4, 0.98, 0.98
    ])
    // A page that tells no language: `ruleMarks` reads a word in no list bare, as an English page's.
    expect(letters(settleLetters(doubted("CALLE MAYOR"), decide(["12 34"]), undefined))).toEqual([
      0.98, 0.98, 0.98, 0.98, 0.98, 0.9, 0.98, 0.98, 0.98, 0.98, 0.98
    ])
  })

  it("keeps them on a compound of two words the lists hold, as Dutch and German write them (`TRANSPORTSTRAAT`)", () => {
    const dutch: Lexicon = { has: (word) => ["transport", "straat", "jansen"].includes(word.toLowerCase()) }
    const page = decide(["Factuur", "Het bedrag is voor de klant", "Totaal te betalen"])
    expect(letters(settleLetters(doubted("TRANSPORTSTRAAT"), page, dutch)).every((p) => p === 0.98)).toBe(true)
    // A word in no list beside a listed one (`DIJKSTRALAAN`, the name in none) keeps its doubt; parts of three letters
    // at least (`STRAATS`: `STRAAT` and an `S` is no compound).
    const unlisted = letters(settleLetters(doubted("DIJKSTRASTRAAT"), page, dutch))
    expect(unlisted.filter((p) => p === 0.4).length).toBeGreaterThan(0)
    expect(letters(settleLetters(doubted("STRAATS"), page, dutch)).filter((p) => p === 0.4).length).toBeGreaterThan(0)
    // Spanish writes no compound as one word: `HARTAMAS` (`harta`, `mas`) is a name.
    const spanish: Lexicon = { has: (word) => ["harta", "mas"].includes(word.toLowerCase()) }
    const page2 = decide(["Factura", "El importe de la factura", "Total a pagar"])
    expect(letters(settleLetters(doubted("HARTAMAS"), page2, spanish)).filter((p) => p === 0.4).length).toBeGreaterThan(
      0
    )
  })

  it("falls back to the letter with the characters its word cannot tell it from, its marks apart (`kin`)", () => {
    // `A` read at 0.4 against `a` 0.3 and `Á`: in a word in capitals the case is settled, on a French page the mark not.
    const read = doubted("BATIMENT").map((ch) => (ch.text === "A" ? { ...ch, kin: 0.7 } : ch))
    expect(letters(settleLetters(read, decide(frenchInvoice), listed))[1]).toBe(0.7)
  })
})

describe("readDoubles", () => {
  // A line read one or two timesteps a character, the characters at `wide` over four: a letter CTC merged with its
  // double (a worn scan's `Den Hag` for `Den Haag`).
  const spanned = (line: string, wide: ReadonlyArray<number>): Array<CtcChar> => {
    let t = 0
    return Array.from(line, (text, i) => {
      const span = wide.includes(i) ? 4 : 1 + (i % 2)
      const ch = { text, first: t, last: t + span - 1, prob: 0.95, letter: 0.99 }
      t += span + 1
      return ch
    })
  }
  const dutch: Lexicon = { has: (word) => ["den", "haag", "betaal", "datum"].includes(word.toLowerCase()) }
  const page = decide(["Factuur", "Het bedrag is voor de klant", "Totaal te betalen"])

  it("reads a letter over a run as long as two twice where the lists hold the word so (`Hag` → `Haag`)", () => {
    const read = readDoubles(spanned("Den Hag", [5]), page, dutch)
    expect(text(read)).toBe("Den Haag")
    // Each half of the run is one of the two letters.
    expect(read.slice(5, 7).map((c) => [c.first, c.last])).toEqual([
      [12, 13],
      [14, 15]
    ])
    // A compound on a Dutch page (`betaldatum` → `betaaldatum`).
    expect(text(readDoubles(spanned("betaldatum", [3]), page, dutch))).toBe("betaaldatum")
  })

  it("leaves the word and its run as read elsewhere, a doubt where no list says which", () => {
    // No list holds `Allee`: one letter or two, the reader cannot tell.
    const [, , , e] = readDoubles(spanned("Alle", [3]), page, dutch)
    expect(e).toMatchObject({ text: "e", prob: 0.5, letter: 0.5 })
    // A figure is never read twice: a doubt.
    expect(text(readDoubles(spanned("10 Den", [1]), page, dutch))).toBe("10 Den")
    // Runs of one or two timesteps are single letters (`Haag` read whole stays whole).
    const whole = spanned("Den Haag", [])
    expect(readDoubles(whole, page, dutch)).toEqual(whole)
  })
})
