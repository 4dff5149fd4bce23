import { assert, describe, it } from "@effect/vitest"
import type { Skill } from "@legible/core"
import { layout } from "../../../src/internal/local/layout.js"
import {
  languageOf,
  withoutCapitalIForL,
  withoutInventedMarks,
  withSizesMended
} from "../../../src/internal/local/orthography.js"
import * as Local from "../../../src/Local.js"
import { type Cell, document, page } from "../../support/documents.js"

const rows = (...texts: ReadonlyArray<string>): ReadonlyArray<ReadonlyArray<Cell>> => texts.map((t) => [[40, t]])

const languageIn = (...texts: ReadonlyArray<string>) => languageOf(layout(document([page(1, rows(...texts))])))

const field = (name: string, description: string): Skill.SkillField => ({
  name,
  order: 1,
  type: "string",
  isList: false,
  description,
  aliases: []
})

describe("marks OCR invents on names", () => {
  it("a document's language from the words it prints, none without a clear lead", () => {
    assert.strictEqual(
      languageIn("TAX INVOICE", "ITEM QTY PRICE AMOUNT", "TOTAL 12.00", "CASH 20.00 CHANGE 8.00"),
      "en"
    )
    assert.strictEqual(languageIn("JALAN PUTRA 1, TAMAN SRI PUTRA", "TERIMA KASIH"), "en")
    assert.strictEqual(languageIn("Fattura n. 12", "Descrizione Quantità Prezzo Importo", "Totale da pagare"), "it")
    assert.strictEqual(languageIn("Factuur", "Omschrijving Aantal Prijs Bedrag", "Totaal te betalen"), "nl")
    assert.strictEqual(languageIn("SUMME 7,16", "zu zahlen 7,16", "Vielen Dank"), "de")
    assert.isUndefined(languageIn("TOTAL 12,00"))
  })

  it("English and Malay write no marks: SELAÑGOR, AEÒN, SDÑ BHD, TAMÁN; French forms keep theirs: S.à r.l.", () => {
    assert.strictEqual(withoutInventedMarks("AEÒN CO. (M) BHD", "en"), "AEON CO. (M) BHD")
    assert.strictEqual(withoutInventedMarks("TAMÁN SRI PUTRA, 40000 SELAÑGOR", "en"), "TAMAN SRI PUTRA, 40000 SELANGOR")
    assert.strictEqual(withoutInventedMarks("ÁIK HUÁT HÁRUWÁRE", "en"), "AIK HUAT HARUWARE")
    // But French's legal forms keep their mark, whatever the document's language; the words around them do not.
    assert.strictEqual(
      withoutInventedMarks("Sold by Example Retail EU S.à r.l.", "en"),
      "Sold by Example Retail EU S.à r.l."
    )
    assert.strictEqual(withoutInventedMarks("Atelier Genevois Sàrl", "en"), "Atelier Genevois Sàrl")
    assert.strictEqual(withoutInventedMarks("Rétail S.à r.l.", "en"), "Retail S.à r.l.")
  })

  it("ñ before a vowel only, a diaeresis on i or e after a vowel only, whatever the language", () => {
    assert.strictEqual(withoutInventedMarks("SANYU SDÑ BHD", undefined), "SANYU SDN BHD")
    assert.strictEqual(withoutInventedMarks("Holland Bakkerïj B.V", "nl"), "Holland Bakkerij B.V")
    assert.strictEqual(withoutInventedMarks("Logística Núñez S.A.U.", "es"), "Logística Núñez S.A.U.")
    assert.strictEqual(withoutInventedMarks("Boulangerie Noël & Loïc", "fr"), "Boulangerie Noël & Loïc")
  })

  it("each language keeps the marks it writes where it writes them", () => {
    assert.strictEqual(withoutInventedMarks("Tipografía Costruzioni S.a.s.", "it"), "Tipografia Costruzioni S.a.s.")
    assert.strictEqual(withoutInventedMarks("Offícina Lombarda S.p.A.", "it"), "Officina Lombarda S.p.A.")
    assert.strictEqual(withoutInventedMarks("Caffè Città S.r.l.", "it"), "Caffè Città S.r.l.")
    assert.strictEqual(withoutInventedMarks("BÄCKEREI MÜLLER", "de"), "BÄCKEREI MÜLLER")
    assert.strictEqual(withoutInventedMarks("Pingüino Panadería", "es"), "Pingüino Panadería")
    assert.strictEqual(withoutInventedMarks("MERCEARIA SERVIÇOS", "pt"), "MERCEARIA SERVIÇOS")
    assert.strictEqual(withoutInventedMarks("Prüfung Ñandú", "es"), "Prufung Ñandú")
  })

  it("Italian's prepositions di and da never take the day's or the verb's accent (Spese dì spedizione)", () => {
    assert.strictEqual(withoutInventedMarks("Spese dì spedizione", "it"), "Spese di spedizione")
    assert.strictEqual(withoutInventedMarks("Consegna DÀ Milano", "it"), "Consegna DA Milano")
    // A word that ends in the accent keeps it (lunedì, città); another language's `dà` is no matter here.
    assert.strictEqual(withoutInventedMarks("Consegna lunedì in città", "it"), "Consegna lunedì in città")
  })

  it("a capital I OCR read for a word's closing l is that l (Ibérica deI Sur S.L.U.)", () => {
    assert.strictEqual(withoutCapitalIForL("Ibérica deI Sur S.L.U."), "Ibérica del Sur S.L.U.")
    assert.strictEqual(withoutCapitalIForL("HoteI CentraI"), "Hotel Central")
    // Capitals, a name's own I before small letters, a roman numeral and the pronoun are as read.
    for (const text of ["ALIMENTACION DEL SUR", "McIntosh & Co", "Carlos III S.A.", "I", "WiFi Bar"])
      assert.strictEqual(withoutCapitalIForL(text), text)
  })

  it("a size's figures OCR misread are mended: EIEREN 1OST, NUDELN SOOG, AGUA MINERAL I, 5L", () => {
    assert.strictEqual(withSizesMended("EIEREN 1OST"), "EIEREN 10ST")
    assert.strictEqual(withSizesMended("EIER 1OER  PASTA 5OOG  LOTE 1O5"), "EIER 10ER  PASTA 500G  LOTE 105")
    // An S before two zeros and a weight's unit is a five; a word is a word (`CERVEZA SOL`, `SOS`).
    assert.strictEqual(withSizesMended("NUDELN SOOG  ZUCKER SO0GR"), "NUDELN 500G  ZUCKER 500GR")
    assert.strictEqual(withSizesMended("CERVEZA SOL 33CL  SOS  SOOT"), "CERVEZA SOL 33CL  SOS  SOOT")
    // A size's decimal mark with a space OCR read beside it, its one read as an I.
    assert.strictEqual(withSizesMended("AGUA MINERAL I, 5L"), "AGUA MINERAL 1,5L")
    assert.strictEqual(withSizesMended("AGUA MINERAL 1, 5L  VINO 0 ,75L"), "AGUA MINERAL 1,5L  VINO 0,75L")
    assert.strictEqual(withSizesMended("PACK 6 , 2 UDS  ITEM I, 5 KG"), "PACK 6 , 2 UDS  ITEM I, 5 KG")
    // An O opening a word, in a code with other letters, or after figures alone (an ordinal's: 2º) is a letter.
    for (const text of ["OSO 10ST", "COCA COLA 1L", "REF 1OA7", "C/ Mayor 3, 2O PISO", "AB1O"])
      assert.strictEqual(withSizesMended(text), text)
  })

  it("the extractor repairs what OCR read, never a text layer's words", () => {
    const lines = ["SELAÑGOR HARDWARE SDN BHD", "TAX INVOICE", "ITEM QTY PRICE AMOUNT", "CASH 20.00 CHANGE 8.00"]
    const skill = [field("company", "Company name")]
    const printed = document([page(1, rows(...lines))])
    const scanned = { ...printed, pages: printed.pages.map((p) => ({ ...p, source: "ocr" as const })) }
    assert.strictEqual(Local.extractFields(skill, scanned).company, "SELANGOR HARDWARE SDN BHD")
    assert.strictEqual(Local.extractFields(skill, printed).company, "SELAÑGOR HARDWARE SDN BHD")
    const name = ["Ibérica deI Sur S.L.U.", "C/ Mayor 1, 28013 Madrid"]
    const read = document([page(1, rows(...name))])
    const ocr = { ...read, pages: read.pages.map((p) => ({ ...p, source: "ocr" as const })) }
    assert.strictEqual(Local.extractFields(skill, ocr).company, "Ibérica del Sur S.L.U.")
    assert.strictEqual(Local.extractFields(skill, read).company, "Ibérica deI Sur S.L.U.")
  })
})
