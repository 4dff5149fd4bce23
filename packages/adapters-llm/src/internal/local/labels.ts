/**
 * Labels: the words a document prints before (or above) a value. They come from the field itself (aliases, name,
 * a short description) and, when the field is recognisably a common concept (total, date, document number, tax
 * id, company, address, line-item columns), from a lexicon of that concept's labels (line-item columns in es, en,
 * de, fr, it, pt and nl from `vocabulary.ts`; the others mostly Spanish and English: totals, dates and numbers
 * have their own modules).
 */
import type { Field } from "@legible/core"
import { cellAt, cellStart, type Layout, type Row } from "./layout.js"
import { foldedTokens, splitsJoined } from "./phrases.js"
import { folded, nearWords, phraseTokens, sameToken, tokens } from "./text.js"
import {
  BUSINESS_COMPANIONS,
  BUSINESS_KINDS,
  type BusinessKind,
  FIELD_WORDS_ACROSS,
  ITEM_COLUMNS,
  type ItemColumn,
  NAME_WORDS,
  NUMBER_COMPOUNDS,
  READER_WORDS
} from "./vocabulary.js"

/** What the local rules need to know of a field (a skill field, a sub-field or a catalog key column). */
export interface Target {
  readonly name: string
  readonly type: Field.FieldType
  readonly aliases: ReadonlyArray<string>
  readonly description: string
  /** The words of the object field it is a sub-field of (`emisor`, `Datos del cliente`): the party it names. */
  readonly parent?: string
}

/** A common concept a field may stand for, which brings its own labels and value rules. */
export type Concept =
  | "taxId"
  | "date"
  | "total"
  | "number"
  | "company"
  | "address"
  | "description"
  | "quantity"
  | "price"
  | "amount"
  | "email"
  | "phone"
  | "none"

/** A label phrase: its folded tokens and how much a match of it counts. */
export interface Label {
  readonly tokens: ReadonlyArray<string>
  readonly strength: number
  /** A one-word label that may follow one word of its cell where a colon closes it (`Factura rectificativa:`). */
  readonly closed?: boolean
}

export const columnLabels = (column: ItemColumn): ReadonlyArray<string> =>
  ITEM_COLUMNS.flatMap(([c, phrases]) => (c === column ? phrases : []))

const LEXICONS: Readonly<Record<Exclude<Concept, "none">, ReadonlyArray<string>>> = {
  taxId: [
    "cuit",
    "cif",
    "nif",
    "nie",
    "rfc",
    "vat",
    "vat no",
    "vat id",
    "gst id",
    "gst reg no",
    "tax id",
    "c i f",
    "n i f",
    "ruc",
    "rut",
    "nif cif",
    // de, at, ch: `USt-IdNr.`, `UID`, `Steuernummer`; fr: `N° TVA`, `SIRET`; it: `P.IVA`; nl, be: `BTW-nr.`
    "ust idnr",
    "ust id",
    "ust id nr",
    "uid",
    "steuernummer",
    "tva",
    "siret",
    "partita iva",
    "p iva",
    "btw",
    "btw nr",
    "vat reg no",
    "vat number",
    // fr: `N° TVA intracommunautaire`, `TVA intracom.`, `Numéro de TVA`, `SIREN`; nl: `BTW-nummer`; ch: `MWST-Nr.`
    ...["no tva", "no de tva", "tva intracom", "tva intracommunautaire", "no tva intracommunautaire", "siren"],
    ...["btw nummer", "btw id", "mwst nr"],
    // it: a person's `Codice fiscale`, `C.F.`
    ...["codice fiscale", "c f"]
  ],
  date: [
    "fecha",
    "date",
    "fecha de emision",
    "fecha emision",
    "fecha factura",
    "fecha de factura",
    "fecha de expedicion",
    "invoice date",
    "issue date",
    "date issued",
    "fecha de venta"
  ],
  total: [
    "total",
    "importe total",
    "balance due",
    "total neto",
    "total factura",
    "total a pagar",
    "importe a pagar",
    "total eur",
    "total con iva",
    "total iva incluido",
    "grand total",
    "total amount",
    "amount due",
    "total due",
    "net total",
    "nett total",
    "total rounded",
    "rounded total",
    "total incl",
    "total inclusive",
    "total sales",
    "monto total",
    "total rm"
  ],
  number: [
    "factura no",
    "no factura",
    "no de factura",
    "numero de factura",
    "invoice no",
    "comp no",
    "comprobante no",
    "receipt no",
    "bill no",
    "doc no",
    "document no",
    "ticket no",
    "folio"
  ],
  company: [
    ...["razon social", "empresa", "company", "emisor", "proveedor", "vendor", "merchant", "seller"],
    // the other languages' (a company's name on a form: `Raison sociale`, `Ragione sociale`, `Firmenname`); not a
    // word a name opens with (`Société Générale`)
    ...["company name", "raison sociale", "ragione sociale", "razao social", "firmenname", "bedrijfsnaam"]
  ],
  address: [
    ...["direccion", "domicilio", "domicilio comercial", "address"],
    // the other languages' (`Adresse`, `Anschrift`, `Indirizzo`, `Morada`, `Endereço`, `Adres`)
    ...["adresse", "anschrift", "indirizzo", "morada", "endereco", "adres"]
  ],
  email: ["email", "e mail", "correo", "correo electronico", "mail", "courriel", "posta elettronica"],
  phone: ["tel", "telefono", "phone", "telephone", "telefon", "telefoon", "movil", "mobile", "cel", "celular"],
  description: columnLabels("description"),
  quantity: columnLabels("quantity"),
  price: columnLabels("price"),
  amount: columnLabels("amount")
}

/** Words that make a field a total (`total`, `totaal`, `montant_ttc`, `Bruttobetrag`), folded. */
export const TOTAL_TRIGGERS: ReadonlyArray<string> = [
  ...["total", "totales", "totaal", "totale", "ttc", "grandtotal", "brutto", "bruttobetrag", "gross"],
  ...["gesamtbetrag", "rechnungsbetrag", "endbetrag", "gesamtsumme"]
]

const TRIGGERS: ReadonlyArray<readonly [Exclude<Concept, "none">, ReadonlyArray<string>]> = [
  // An address of any party (`supplier_address`, `Dirección del cliente`) is an address, not a company's name.
  ["address", ["address", "direccion", "domicilio", "adresse", "anschrift", "indirizzo", "morada", "adres"]],
  // A contact of a party (`Supplier email`, `telefono_emisor`) is none of its other concepts.
  ["email", ["email", "mail", "correo", "courriel"]],
  ["phone", ["phone", "telephone", "tel", "telefono", "telefon", "telefoon", "movil", "mobile", "celular", "fax"]],
  [
    "taxId",
    [
      ...["cuit", "cif", "nif", "nie", "rfc", "vat", "ruc", "rut", "tin", "gst", "fiscal", "fiscale"],
      ...["ust", "ustid", "uid", "steuernummer", "tva", "btw", "piva", "partita", "siret", "siren"]
    ]
  ],
  ["total", TOTAL_TRIGGERS],
  [
    "number",
    [
      ...["factura", "invoice", "comprobante", "receipt", "recibo", "ticket", "bill", "folio", "albaran", "pedido"],
      ...["order", "fattura", "facture", "factuur", "fatura", "rechnung", "rechnungs", "bon", "beleg"],
      // a purchase order's (`po_number`, `PO No`)
      "po",
      // a noun and its number word in one (`Rechnungsnummer`, `Factuurnummer`, `invoiceno`)
      ...NUMBER_COMPOUNDS
    ]
  ],
  [
    "company",
    [
      "company",
      "empresa",
      "emisor",
      "issuer",
      "vendor",
      "merchant",
      "store",
      "tienda",
      "proveedor",
      "supplier",
      "seller",
      "vendedor",
      "comercio",
      "establecimiento",
      "razon",
      "shop"
    ]
  ],
  ["description", ["descripcion", "concepto", "description", "detalle", "producto", "articulo", "item"]],
  ["quantity", ["cantidad", "qty", "quantity", "unidades", "units", "uds"]],
  ["price", ["precio", "price", "unitario"]],
  ["amount", ["importe", "amount", "subtotal"]]
]

/** The words of a field's name: `fecha_emision`, `fechaEmision` and `fecha-emision` all give `fecha emision`. */
export const nameWords = (name: string): string => name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_\-.]+/g, " ")

const wordsOf = (texts: ReadonlyArray<string>): ReadonlySet<string> =>
  new Set(texts.flatMap((text) => tokens(folded(text)).map((t) => t.text)))

/** The folded words of a field's name, aliases and description. */
export const fieldWords = (target: Target): ReadonlySet<string> =>
  wordsOf([nameWords(target.name), ...target.aliases, target.description])

// The words that make a tax's word a tax id's (`tax id`, `tax identification number`, `tax reg no`, `tax code`;
// `number` and `nr` are read as `no`).
const TAX_ID_SAYS = ["id", "no", "identification", "nummer", "code", "reg", "registration"]

const conceptFrom = (given: ReadonlySet<string>, type: Field.FieldType): Concept => {
  // A plural names the concept its singular does (`emails`, `Teléfonos`, `Correos`).
  const words = new Set([
    ...given,
    ...[...given].flatMap((w) => (w.length > 4 && w.endsWith("s") ? [w.slice(0, -1)] : []))
  ])
  const has = (list: ReadonlyArray<string>) => list.some((w) => words.has(w))
  const numeric = type === "float" || type === "integer"
  // A tax's id or number (`vendor_tax_id`, `Tax number`, `customer_tax_id`): a tax id, not the party's name; not a
  // tax invoice's number (`tax_invoice_no`).
  if (type === "string" && words.has("tax") && has(TAX_ID_SAYS) && !has(["invoice", "receipt", "factura", "bill"]))
    return "taxId"
  for (const [concept, triggers] of TRIGGERS) {
    if (!has(triggers)) continue
    if (concept === "taxId" && type !== "date" && !numeric) return concept
    if (concept === "total" && type !== "date") return concept
    if (concept === "number" && type === "string" && (words.has("no") || words.has("nummer") || has(NUMBER_COMPOUNDS)))
      return concept
    if (
      (concept === "company" ||
        concept === "address" ||
        concept === "description" ||
        concept === "email" ||
        concept === "phone") &&
      type === "string"
    )
      return concept
    if ((concept === "quantity" || concept === "price" || concept === "amount") && numeric) return concept
  }
  // A kind of business (`banco`, `Nombre del hotel`, `compania_aseguradora`): the issuer's name.
  if (type === "string" && namesBusiness(words)) return "company"
  if (type === "date" || has(["fecha", "date"])) return type === "string" || type === "date" ? "date" : "none"
  // A number word alone (`numero`, `Número`, `Nummer`): the document's number.
  if (type === "string" && words.size > 0 && [...words].every((w) => w === "no" || w === "nummer")) return "number"
  return "none"
}

const BUSINESSES = BUSINESS_KINDS.map((kind) => ({ kind, asked: kind.asked.map(phraseTokens) }))
const BESIDE_BUSINESS = new Set([...BUSINESS_COMPANIONS, ...NAME_WORDS])

/** The kind of business a field's words name, with a name's or a company's words at most besides. */
const kindNamed = (words: ReadonlySet<string>): BusinessKind | undefined => {
  const own = [...words].filter((w) => !BESIDE_BUSINESS.has(w))
  if (own.length === 0) return undefined
  return BUSINESSES.find(({ asked }) => asked.some((phrase) => own.every((w) => phrase.includes(w))))?.kind
}

const namesBusiness = (words: ReadonlySet<string>): boolean => kindNamed(words) !== undefined

/** The kind of business a field asks for the name of (`banco`, `Nombre del hotel`), if one. */
export const businessOf = (target: Target): BusinessKind | undefined =>
  target.type !== "string"
    ? undefined
    : (kindNamed(wordsOf([nameWords(target.name), ...target.aliases])) ?? kindNamed(fieldWords(target)))

/**
 * The concept a field stands for, from its type and words: its name and aliases first, its description only
 * when they say nothing ("address" described as "Address of the company" is an address, not a company).
 */
export const conceptOf = (target: Target): Concept => {
  const ownWords = wordsOf([nameWords(target.name), ...target.aliases])
  const own = conceptFrom(ownWords, target.type)
  if (own !== "none") return own
  const said = conceptFrom(fieldWords(target), target.type)
  // A total the description says (`Total a deducir`, `Total devengado`) of an amount the name says is another
  // (`deducciones`, `salario_bruto`): that amount, which the description labels, not the document's total.
  return said === "total" && [...ownWords].some((w) => OTHER_AMOUNTS.has(w)) ? "none" : said
}

// Amounts a document totals apart from what it is paid: a payslip's pay and deductions, a deposit, a balance.
const OTHER_AMOUNTS: ReadonlySet<string> = new Set([
  ...["deducciones", "deduccion", "deductions", "deduction", "abzuge", "retenues", "trattenute", "descontos"],
  ...["inhoudingen", "salario", "sueldo", "salary", "wage", "wages", "lohn", "gehalt", "salaire", "stipendio"],
  ...["retribuzione", "loon", "salaris", "bruto", "gross", "brutto", "brut", "lordo", "devengado", "devengos"],
  ...["earnings", "cotizacion", "cotizaciones", "contributions", "deposito", "deposit", "fianza", "saldo", "balance"]
])

/** The strength of a label from the field's aliases, its name, its (short) description and its concept's lexicon. */
export const ALIAS = 1
export const NAME = 0.9
export const DESCRIPTION = 0.85
export const LEXICON = 0.8

/** The labels of a field, strongest first: aliases, its name, a short description, then its concept's lexicon. */
export const labelsOf = (target: Target, concept: Concept = conceptOf(target)): ReadonlyArray<Label> => {
  // A skill's fields ask for the same labels on every document: each field's are built once (a bounded cache, as
  // the label indexes below; it holds no document).
  const key = [target.name, target.type, concept, target.description, target.parent ?? "", ...target.aliases].join(
    "\u0000"
  )
  const known = LABELS.get(key)
  if (known !== undefined) return known
  const built = buildLabels(target, concept)
  if (LABELS.size >= INDEXES_KEPT) LABELS.clear()
  LABELS.set(key, built)
  return built
}

const LABELS = new Map<string, ReadonlyArray<Label>>()

const buildLabels = (target: Target, concept: Concept): ReadonlyArray<Label> => {
  const out: Array<Label> = []
  // A yes or no's label is the field's own word, often after another (`Factura rectificativa: NO`, `Reverse
  // charge: No`): its value, a yes or a no, says whether the row answers it.
  const closed = target.type === "boolean"
  const add = (phrase: string, strength: number) => {
    const t = phraseTokens(phrase)
    if (t.length > 0 && !out.some((l) => l.tokens.join(" ") === t.join(" ")))
      out.push(closed ? { tokens: t, strength, closed } : { tokens: t, strength })
  }
  for (const alias of target.aliases) add(alias, ALIAS)
  add(nameWords(target.name), NAME)
  if (phraseTokens(target.description).length <= 4) add(target.description, DESCRIPTION)
  // A tax id's label that the field's own words name (`tva_intracom`: `N° TVA`, not `SIRET`) before the others.
  const own = concept === "taxId" ? fieldWords(target) : new Set<string>()
  // What the other languages print for what the field's words name (`Room No` for `habitacion`); not for a price,
  // whose words name what it is the price of (`precio_litro`: `Volume 38.12 L` is no price).
  if (concept !== "price") for (const phrase of acrossOf(target)) add(phrase, LEXICON)
  if (concept !== "none")
    for (const phrase of LEXICONS[concept])
      add(
        phrase,
        concept === "description" && CODE_HEADERS.has(phrase)
          ? CODE_HEADER
          : phraseTokens(phrase).some((t) => t.length >= 3 && own.has(t))
            ? OWN_LEXICON
            : LEXICON
      )
  return out
}

// Words a phrase is written with beside its own (`numero de poliza`, `name des gastes`).
const FILLERS = new Set([
  ...["de", "del", "la", "el", "the", "of", "des", "du", "d", "di", "da", "do", "van", "het", "a", "al", "to", "zu"],
  ...["te", "y", "and", "und", "et", "e", "en"]
])

const ACROSS = FIELD_WORDS_ACROSS.map((group) =>
  group.map((phrase) => ({ phrase, own: phraseTokens(phrase).filter((t) => !FILLERS.has(t)) }))
)

/**
 * The phrases of the groups of `FIELD_WORDS_ACROSS` a field's words name, longest first: by its name and aliases,
 * else by its description (`Número de la habitación del huésped` names a room, not a guest, where the name says
 * `habitacion`). A group whose phrase another named group's phrase holds is that one's part (`saldo` of `saldo
 * final`): not named.
 */
const acrossOf = (target: Target): ReadonlyArray<string> => {
  const named = (words: ReadonlySet<string>) => {
    const matched = ACROSS.flatMap((group) => {
      const phrase = group
        .filter((p) => p.own.length > 0 && p.own.every((t) => words.has(t)))
        .sort((a, b) => b.own.length - a.own.length)[0]
      return phrase === undefined ? [] : [{ group, own: phrase.own }]
    })
    return matched.filter(
      (m) => !matched.some((o) => o.own.length > m.own.length && m.own.every((t) => o.own.includes(t)))
    )
  }
  const own = named(wordsOf([nameWords(target.name), ...target.aliases]))
  // A description names one thing only where one phrase says all it says (`Importe de la multa`; not `Centro
  // médico o clínica`, whose `médico` is no doctor).
  const said = [...wordsOf([target.description])].filter((w) => !FILLERS.has(w) && !BESIDE_DESCRIPTION.has(w))
  const chosen = own.length > 0 ? own : named(fieldWords(target)).filter((m) => said.every((w) => m.own.includes(w)))
  return chosen
    .flatMap((m) => m.group)
    .sort((a, b) => b.own.length - a.own.length)
    .map((p) => p.phrase)
}

// A description's words beside what it names: a name's, a number's, `or`.
const BESIDE_DESCRIPTION = new Set([...NAME_WORDS, "no", "o", "or", "u", "oder", "ou", "of"])

/** The strength of a lexicon label a word of the field's own names. */
export const OWN_LEXICON = LEXICON + 0.03

// The description's header words that head an article's code as often (`Artigo | Descrição`, `Item | Description`,
// `Artikel | Bezeichnung`): a description's own word beside them heads the description.
const CODE_HEADERS: ReadonlySet<string> = new Set([
  ...["articulo", "producto", "item", "product", "artikel", "article", "produit", "articolo", "prodotto"],
  ...["artigo", "produto"]
])
const CODE_HEADER = LEXICON - 0.05

/** A label found in a row: offsets in the row's text of its first and last character. */
export interface Hit {
  readonly row: Row
  readonly label: Label
  readonly start: number
  readonly end: number
  /** Whether the row's words are the label's word for word (no OCR slip tolerated). */
  readonly exact: boolean
}

/** Labels indexed by first token, and the first tokens a row token may be read for. */
interface LabelIndex {
  readonly byFirst: ReadonlyMap<string, ReadonlyArray<number>>
  readonly near: (token: string) => ReadonlyArray<string>
  /** Every token of the labels: a long one OCR split in two is read joined (`splitsJoined`). */
  readonly words: ReadonlySet<string>
}

// A skill's fields ask for the same labels on every document: each set of labels is indexed once (a bounded cache
// of compiled label sets, like the module's vocabularies; it holds no document).
const INDEXES = new Map<string, LabelIndex>()
const INDEXES_KEPT = 512

const indexOf = (labels: ReadonlyArray<Label>): LabelIndex => {
  const key = labels.map((l) => l.tokens.join(" ")).join("|")
  const known = INDEXES.get(key)
  if (known !== undefined) return known
  const byFirst = new Map<string, Array<number>>()
  labels.forEach((label, n) => {
    const first = label.tokens[0] ?? ""
    byFirst.set(first, [...(byFirst.get(first) ?? []), n])
  })
  const index = { byFirst, near: nearWords(byFirst.keys()), words: new Set(labels.flatMap((l) => l.tokens)) }
  if (INDEXES.size >= INDEXES_KEPT) INDEXES.clear()
  INDEXES.set(key, index)
  return index
}

// A table's position column headed apart from the description by one space: `Pos.`, `Lfd. Nr.`, `#`.
const READER = new Set(READER_WORDS)

export const POSITION_HEADER = /^\s*(?:pos\.?|lfd\.?\s*nr\.?|#)\s+/iu

// A table's code column headed apart from the description by one space: `Código Descrição`, `Cód. Descripción`,
// `Ref. Description`, `SKU Item`, `Art.-Nr. Bezeichnung`. In a header row only: elsewhere a reference's word before
// a label (`Ref. factura: …`) keeps it no label.
export const CODE_COLUMN_HEADER = /^\s*(?:c[oó]d(?:igo|ice|e)?\.?|ref\.?|referencia|sku|ean|art\.?-?nr\.?)\s+/iu

// A table's count column headed apart from the description by one space (`CANT DESCRIPCION`, `QTY ITEM`), as
// tills print their header: in a header row (`findLabels` with `header`), no word of the description's label.
const COUNT_HEADER = /^\s*(?:cant|uds?|unid|qty|qte|qté|qta|q\.tà|qtd|qtde|menge|anz|aant|stk)\.?\s+/iu

/**
 * Where the labels occur in the document, each within one cell. A one-word label must open its cell (`TOTAL`, not `SUB TOTAL`); a
 * lexicon label may follow one word (`Tax Invoice No`) but not a sentence (`GST included in total RM`).
 */
export const findLabels = (layout: Layout, labels: ReadonlyArray<Label>, header = false): Array<Hit> => {
  // Labels by first token: a row token looks up the labels that may start at it (its own, and those whose long
  // first token it reads up to OCR slips) instead of trying every label at every token.
  const index = indexOf(labels)
  const { byFirst, near } = index
  const hits: Array<Hit> = []
  for (const row of layout.rows) {
    // A label's long word OCR split in two (`BESCHREIB UNG` over a table's descriptions) is read joined.
    const rowTokens = splitsJoined(foldedTokens(row), index)
    // A text layer's words are as printed: a word a slip away from a label's is another word (`Location` is no
    // `violation`, `Asegurado` no `aseguradora`). OCR's may be misread.
    const read = layout.ocrPages.has(row.page)
    const same = read ? sameToken : (a: string, b: string) => a === b
    // Label order first, then place: the order the hits were always given in.
    const starts: Array<readonly [number, number]> = []
    rowTokens.forEach((token, i) => {
      for (const f of read ? [token.text, ...near(token.text)] : [token.text])
        for (const n of byFirst.get(f) ?? []) starts.push([n, i])
    })
    starts.sort((a, b) => a[0] - b[0] || a[1] - b[1])
    for (const [n, i] of starts) {
      const label = labels[n]
      if (label === undefined || i + label.tokens.length > rowTokens.length) continue
      if (!label.tokens.every((t, k) => same(t, rowTokens[i + k]?.text ?? ""))) continue
      const first = rowTokens[i]
      const last = rowTokens[i + label.tokens.length - 1]
      if (first === undefined || last === undefined) continue
      const start = row.folded.origin[first.start] ?? 0
      const end = (row.folded.origin[last.end - 1] ?? 0) + 1
      const colon = label.closed === true && /^\s*:/.test(row.text.slice(end))
      const allowed =
        label.tokens.length === 1 ? (colon ? 1 : 0) : label.strength < DESCRIPTION ? 1 : Number.POSITIVE_INFINITY
      const cell = cellAt(row, start)
      // A label lies in one cell: `PREZZO | TOTALE` are two headers, not `prezzo totale`.
      if (cell !== cellAt(row, end - 1)) continue
      // A mark between spaces sets parts of a line apart (`Muster GmbH · Tel. 089 123456 · IBAN …`): a label may open
      // any of them.
      const before =
        (cell === undefined ? "" : row.text.slice(cellStart(row, cell), start)).split(/\s[·|•]\s|\s[-–]\s/u).at(-1) ??
        ""
      // Words as printed: `Q.TÀ` before `PREZZO UNITARIO` is one word, as `QTA` is. A position column's header set
      // close before a label is no word of it (`Pos. Bezeichnung`), nor in a header row a count's or a code's.
      const words = (header ? before.replace(COUNT_HEADER, "").replace(CODE_COLUMN_HEADER, "") : before)
        .replace(POSITION_HEADER, "")
        .split(/\s+/)
        // A word that addresses the reader opens a label of theirs (`Su referencia:`, `Your ref:`): no word of a sentence.
        .filter((w, k) => k > 0 || !READER.has(folded(w)))
      if (words.filter((w) => /[\p{L}\p{N}]/u.test(w)).length > allowed) continue
      const exact = label.tokens.every((t, k) => t === rowTokens[i + k]?.text)
      hits.push({ row, label, start, end, exact })
    }
  }
  return hits
}
