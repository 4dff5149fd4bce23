/**
 * What an address's lines look like, from their text alone: a street word or a postcode and town (`addressLine`),
 * how an address ends (a postcode, a state or a country: `addressEnd`) and the lines that close it (a contact, tax or
 * register line: `closesAddress`), and a registration number printed under a name.
 */
import { emails, phones } from "./patterns.js"
import { folded, tokens } from "./text.js"
import { ADDRESS_REGIONS, ADDRESS_SUFFIXES, ADDRESS_WORDS, CONTACT_WORDS, TAX_ID_WORDS } from "./vocabulary.js"

const ADDRESS = new Set(ADDRESS_WORDS)

const words = (text: string): ReadonlyArray<string> => tokens(folded(text)).map((t) => t.text)

/** Whether a text has a street word, or a compound ending in one (`Uferweg`). */
export const hasStreet = (text: string): boolean =>
  words(text).some(
    (w) => ADDRESS.has(w) || ADDRESS_SUFFIXES.some((end) => w.length > end.length + 2 && w.endsWith(end))
  )

/**
 * Whether a text is an address line: a street word (or a compound ending in one), Spain's `C/` (calle), or a
 * postcode and town (the Netherlands' letters after its figures: `2394 SA Den Haag`, whose `SA` is no legal form).
 */
export const addressLine = (text: string): boolean =>
  hasStreet(text) ||
  /(?<![\p{L}\d])[Cc]\/\s?\p{L}/u.test(text) ||
  /(?<![\d-])\d{4,5}\s+\p{L}{3}|(?<![\p{L}\d])\p{Lu}{1,2}-\d{4,5}\s+\p{L}{3}/u.test(text) ||
  /(?<![\p{L}\d-])\d{4}\s?\p{Lu}{2}\s+\p{Lu}\p{L}{2}/u.test(text)

// Contact, date, tax and document words, a document's noun in each of the seven languages among them (`FACTURE N°
// 2026-1187` under an address had been read as its last line).
export const STOP_PATTERN =
  /(?<![a-z])(tel|telf|tlf|phone|telefono|fax|gst|email|e-mail|www|http|invoice|inv|receipt|factura|facture|fattura|fatura|factuur|rechnung|quittung|ricevuta|scontrino|recu|recibo|kassenbon|presupuesto|devis|angebot|preventivo|orcamento|offerte|quotation|date|fecha|cashier|cajero|doc|tax|cif|nif|cuit|iva|vat|reg|hp|mobile|order|ref|account|customer)(?![a-z])/

// Contact and register words, and the tax id words but `st` (a street's abbreviation) and `business`, which streets
// and parks are named with (`123 Business Road`, `Riverside Business Park`): a business's register line closes the
// address by its other words (`Reg. No.`, a label's colon, seven figures or more).
const STOP_WORDS = new Set([...CONTACT_WORDS, ...TAX_ID_WORDS.filter((w) => w !== "st" && w !== "business")])

/**
 * Whether a folded line closes the address: a contact, register, tax id or document line (`TEL :`, `USt-IdNr.`,
 * `BTW nummer`, `N° TVA`, `INVOICE NO`), a number of seven figures or more, a phone number alone (`(937) 555-0142`,
 * as American and British letterheads print it, with no label) or a mail address (`billing@brightpath.io`), or a
 * labelled value (`Inv. No.: P-6973-040`: an address has no label).
 */
export const closesAddress = (text: string): boolean =>
  STOP_PATTERN.test(text) ||
  phones(text).some((phone) => phone.text === text.trim()) ||
  emails(text).length > 0 ||
  // A tax or register number (`St.-Nr. DE584839266`): seven figures in a row are in no street or postcode.
  /\d{7}/.test(text) ||
  // Opening hours (`OPEN DAILY 10AM - 10PM`, `Mo-Fr 8-19h`, `9:00-18:00`): an address has no time of day.
  /(?<![\p{L}\d])\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm|h|uhr)(?![\p{L}\d])|(?<![\d.:])\d{1,2}:\d{2}(?![\d:])/u.test(text) ||
  // Abbreviations dotted and hyphenated (`N.I.F.`, `St.-Nr.`) read as one word too.
  [/\./g, /[.-]/g].some((marks) => words(text.replace(marks, "")).some((w) => STOP_WORDS.has(w))) ||
  /\p{L}[.\s]*:\s*\S/u.test(text)

/** A registration number or tax id printed alone under the name: `(742016-W)`, `JMO326956-V`. */
export const registration = (text: string): boolean =>
  (/^\(?[a-z0-9\-.\s]*\d[a-z0-9\-.\s]*\)?$/.test(text) && !/\p{L}{3}/u.test(text)) ||
  /^\(?[a-z]{0,4}\d{5,}[a-z0-9\-/]*\)?$/.test(text.trim())

// A state or country closing the text, folded.
const REGION_AT_END = new RegExp(
  `(?<![a-z])(?:${ADDRESS_REGIONS.map((region) => region.replace(/\s+/g, "\\s+")).join("|")})[\\s.,]*$`
)

/**
 * Whether an address's last lines say where it ends: a postcode — five figures (`81200 JOHOR BAHRU`, OCR's `O`
 * for a zero kept: `456OO`), a country's letter and four or five (`D-63571`), four before the town (`8001
 * Zürich`, `1012 AB Amsterdam`), Portugal's four and three (`1000-001 Lisboa`), Britain's outward and inward codes
 * (`LS1 4AP`), with no figure after it on the line; six figures ending it (India, Singapore), Canada's code
 * (`M5H 2N2`), an Australian state's code and four (`NSW 2022`) — or a state or country it closes with
 * (`SELANGOR DARUL EHSAN`, `MALAYSIA`). A street number (`LOT 1851-A`, `NO.53`) is none of these.
 */
export const addressEnd = (text: string): boolean =>
  POSTCODES.some((postcode) => postcode.test(text)) || REGION_AT_END.test(folded(text))

// Postcodes with the town after them and no more figures to the end of the line (`07637 Marseille 60891` is the
// town's line run into another column's number), or a US state's ZIP ending it.
const POSTCODES: ReadonlyArray<RegExp> = [
  /(?<![\p{L}\d-])(?=(?:O*\d){3})[\dO]{5}(?![\p{L}\d-])(?=[\s,.]*\p{L}\D*$)/u,
  // A US state's code and ZIP ending the line (`Springfield, IL 62704`).
  /(?<![\p{L}\d])\p{Lu}{2}\s\d{5}[\s.]*$/u,
  /(?<![\p{L}\d])\p{Lu}{1,2}-\d{4,5}(?![\p{L}\d])(?=\D*$)/u,
  /(?<![\p{L}\d-])\d{4}\s+\p{L}{2}(?=\D*$)/u,
  /(?<![\p{L}\d-])\d{4}-\d{3}(?![\p{L}\d-])(?=\D*$)/u,
  /(?<![\p{L}\d])\p{Lu}{1,2}\d[\p{Lu}\d]?\s\d\p{Lu}{2}(?![\p{L}\d])(?=\D*$)/u,
  // Six figures after the town or state ending the line (India's `Bengaluru, Karnataka 560001`, `Mumbai - 400001`;
  // `Singapore 629117`), Canada's code (`Toronto ON M5H 2N2`), an Australian state's code and four (`NSW 2022`).
  /\p{L}{3,}[,.]?\s(?:-\s)?[1-9]\d{5}[\s.]*$/u,
  /(?<![\p{L}\d])\p{Lu}\d\p{Lu}\s?\d\p{Lu}\d[\s.]*$/u,
  /(?<![\p{L}\d])(?:NSW|VIC|QLD|SA|WA|TAS|ACT|NT)\s\d{4}[\s.]*$/u
]
