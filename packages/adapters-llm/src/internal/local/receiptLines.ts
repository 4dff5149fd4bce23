/**
 * Receipt lines: a quantity and unit price printed inside a line (`2 x 1,25`, `6 x ( 0,95 )`, `1,000 kg x 2,99
 * €/kg`, `2 UD 1,25`) or a leading count (`1 PATATAS GAJO`) split into their own sub-fields; and, on a receipt
 * with no header row, the lines themselves: rows above the first total that end in an amount (and maybe the till's
 * tax class, `1,99 A`), a row of only a quantity and price completing the description printed on the row above it.
 */
import { type Concept, columnLabels, conceptOf, fieldWords, type Target } from "./labels.js"
import type { Layout, Row } from "./layout.js"
import { type Amount, amounts, dates } from "./patterns.js"
import { findPhrases, rowTokens, splitsJoined, TOTAL_PHRASES } from "./phrases.js"
import { folded } from "./text.js"
import { CARRIED_FORWARD, ITEM_COLUMNS, NAME_WORDS, NOT_TOTAL_WORDS, TAX_WORDS } from "./vocabulary.js"

/** The sub-fields a line item has, by role. */
export interface LineRoles {
  readonly description?: Target | undefined
  readonly quantity?: Target | undefined
  readonly price?: Target | undefined
  readonly amount?: Target | undefined
}

// Words a line item's sub-field is named with, past the concepts' own: its column's header words (`rate`, `Menge`,
// `Betrag`: `ITEM_COLUMNS`), and for the description a name's word too (`nombre`, `name`), folded.
const ITEM_WORDS = ITEM_COLUMNS.map(
  ([column, phrases]) =>
    [
      column,
      new Set([...phrases.filter((p) => !p.includes(" ")), ...(column === "description" ? NAME_WORDS : [])])
    ] as const
)

// A code's sub-field (`sku`, `referencia`, `Art.-Nr.`): never a line's description.
const CODE_WORDS = new Set([
  "sku",
  "ref",
  "referencia",
  "reference",
  "code",
  "codigo",
  "cod",
  "ean",
  "id",
  "no",
  "nr",
  "art"
])
const isCode = (target: Target): boolean => [...fieldWords(target)].some((w) => CODE_WORDS.has(w))

/**
 * The concept of a line item's sub-field: a total inside a line (`line_total`) is the line's amount; a name the
 * concepts do not know may still say its column (`nombre`, `rate`, `Menge`).
 */
export const itemConcept = (target: Target): Concept => {
  const concept = conceptOf(target)
  if (concept === "total") return "amount"
  if (concept !== "none") return concept
  if (isCode(target)) return "none"
  const words = [...fieldWords(target)]
  const numeric = target.type === "float" || target.type === "integer"
  const found = ITEM_WORDS.find(
    ([column, set]) => (column === "description") !== numeric && words.some((w) => set.has(w))
  )
  return found?.[0] ?? "none"
}

/**
 * The roles of a list field's sub-fields, from their concepts. With none for the description, the first text
 * sub-field that is no code's takes it: a list of lines describes each.
 */
export const rolesOf = (targets: ReadonlyArray<Target>): LineRoles => {
  const by = (concept: string) => targets.find((t) => itemConcept(t) === concept)
  const described =
    by("description") ?? targets.find((t) => t.type === "string" && itemConcept(t) === "none" && !isCode(t))
  return { description: described, quantity: by("quantity"), price: by("price"), amount: by("amount") }
}

// American and British tills weigh in pounds and ounces and count `ea` (each): `2.15 lb @ 0.60 /lb`. The longer of
// two units one opens goes first, so none leaves its last letters behind (`/ LB`: not `L`, then `B`).
const UNIT = "(?:kg|gr|g|lbs|lb|lt|l|ml|oz|uds|ud|unid|und|un|u|ea|stuks|stuk|stk|st|pces|pce|pcs|pc|pzs|pz)"
const WEIGHT_UNIT = "(?:kg|gr|g|lbs|lb|lt|l|oz)"
const TIMES = "(?:x|×|\\*|@)"
// OCR may read a space after the decimal mark (`6, 88`): the captures are given without it (`spaceless`).
const PRICE = "(\\d{1,6}[.,] ?\\d{2})"

// `2 x 1,25`, `6 x ( 0,95 )`, `1,000 kg x 2,99 €/kg`, `2 UD 1,25`, `3 Stk x 0,99`.
const CURRENCY = "(?:€|\\$|£|eur|usd|gbp|chf|rm|myr)"
const CURRENCY_BEFORE = new RegExp(`(?<![\\p{L}])${CURRENCY}\\s*$`, "iu")
// What a quantity row leaves of a line's text: a unit and its `x` (`6 Stk x 0,45` leaves `Stk x`), no description.
const UNIT_ONLY = new RegExp(`^${UNIT}?\\.?\\s*${TIMES}?$`, "iu")

// A unit with no `x` after it must stand apart from the quantity: `2 UD 1,25`, not `MILK 1L  3.20` (a speck OCR read
// between them is no matter: `6. St 6,46`, `3. X 8,07`, `3 UN .7,91`; nor a stray figure between a weight and its
// `kg`, or a stroke glued to the `x` after it, `1,854 4 kg x 4,21 €/kg`, `0,904 kg x1 12,26 €/kg`, `3x1 10,94`: a
// line takes them only where they make its amount). The euro sign of a price per unit may be read as a `c` (`3,08
// c/kg`), as Spain's `c/u` (each) prints it, and the pound sign as an `f` (`12. 85 f/kg`); tills with no euro sign
// print an `E` (`2,00 E/KG`).
const quantityPriceBody = (price: string) =>
  `(\\d{1,4}(?:[.,]\\d{1,3}|[.,] \\d{3})?)(?: \\d(?= kg))?(?:\\s*${UNIT}\\.?\\s*${TIMES}(?:1(?=\\s+\\d))?|\\.?\\s+${UNIT}\\.?|\\.?\\s*${TIMES}(?:1(?=\\s+\\d))?)\\s*\\(?\\s*(?:${CURRENCY}\\s?)?(?:[.,'](?=\\d))?${price}\\s*\\)?\\s*${CURRENCY}?(?:\\s*[cfe]?\\s*\\/\\s*${UNIT})?(?![\\d])`
const QUANTITY_PRICE = new RegExp(`(?<![\\p{L}\\d.,])${quantityPriceBody(PRICE)}`, "iu")

// A count after the unit price, maybe after its times sign as a German till prints it (`0,89 × 2`).
const COUNT_AFTER_PRICE = new RegExp(`^\\s*(?:${TIMES}\\s*)?(\\d{1,3})\\s*$`, "iu")

// A count opening a line, maybe with its times sign as tills and bars print it: `1 PATATAS GAJO`, `2 x Brötchen`,
// `3X COLA`.
const TIMES_AFTER_COUNT = "(?:\\s*[x×*]\\s)?"
const LEADING_COUNT = new RegExp(`^(\\d{1,3})${TIMES_AFTER_COUNT}\\s*(?<=\\s)(?=[+*]?\\p{L}{2})`, "iu")

// A count with a stray mark OCR read after it (`3. PARMIGIANO 14,58 43,74`, `1' QUESO TIERNO 13,78 13,78`): taken
// only where it makes the amount with the unit price (an item's number, `1. Apple`, does not).
const LEADING_COUNT_MARKED = new RegExp(`^(\\d{1,3})[.,']?${TIMES_AFTER_COUNT}\\s*(?<=\\s)(?=[+*]?\\p{L}{2})`, "iu")

// The word a unit price is printed after (`2 x Brötchen á 0,45`, `2 CAFE @ 1,20`, `3 LATAS c/u 0,80`), or its times
// sign (`2 CROISSANT x 1,10`).
const EACH = /\s+(?:à|á|@|je|c\/u|each|ea\.?|x|×)\s*$/iu

/** A figure without the spaces OCR read into it (`2, 133` → `2,133`). */
const spaceless = (text: string): string => text.replace(/\s+/g, "")

// An article's barcode (UPC-A, EAN-13) and the tax flag after it, printed after its name (`GV MILK 1GAL
// 007874235186 F`, as American tills print them): no words of the name.
const BARCODE = /(?<=\p{L}.*)\s+\d{12,13}(?:\s+\p{Lu})?\s*$/u

/** A description without the barcode a till printed after the name. */
const withoutBarcode = (text: string): string => text.replace(BARCODE, "")

/**
 * A description without the specks OCR read as marks standing alone between its words (`WHITE • BREAD`, `CHEDDAR (
 * CHEESE`, `SUMO [ DE LARANJA`): a bullet or bar, or a bracket nothing closes or opens; or glued to its first or last
 * letter (`·BUTTER`, `Réparation\``).
 */
export const withoutSpecks = (text: string): string => {
  const words = text.split(/\s+/).filter((w) => w !== "")
  const count = (mark: string) => words.filter((w) => w.includes(mark)).length
  const unpaired = (w: string) =>
    [
      ["(", ")"],
      ["[", "]"]
    ].some(([open = "", close = ""]) => (w === open && count(close) === 0) || (w === close && count(open) === 0))
  return words
    .filter((w) => !/^[•·|¦]$/u.test(w) && !unpaired(w))
    .join(" ")
    .replace(/^[•·¦`´]+(?=\p{L})|(?<=\p{L})[•·¦`´]+$/gu, "")
}

/** A line's text split: the description left, the quantity and unit price found in it. */
export interface Split {
  readonly description: string
  readonly quantity: string | null
  readonly price: string | null
}

// A unit price with three decimals, as a litre of fuel is priced (`42,35 L x 1,659 €/L  70,26`): taken only where it
// makes the line's amount.
const QUANTITY_FINE_PRICE = new RegExp(`(?<![\\p{L}\\d.,])${quantityPriceBody("(\\d{1,6}[.,]\\d{3})")}`, "iu")

/**
 * Splits a quantity and unit price (or a leading count) out of a line's text; with the line's `amount`, also a unit
 * price of three decimals that makes it.
 */
export const splitQuantity = (text: string, amount?: number): Split => {
  const fine = amount === undefined ? null : QUANTITY_FINE_PRICE.exec(text)
  const m =
    QUANTITY_PRICE.exec(text) ??
    (fine?.[1] !== undefined && fine[2] !== undefined && amount !== undefined && makes(fine[1], fine[2], amount)
      ? fine
      : null)
  if (m !== null && m[1] !== undefined && m[2] !== undefined) {
    const description = `${text.slice(0, m.index)} ${text.slice(m.index + m[0].length)}`.replace(/\s+/g, " ").trim()
    return { description, quantity: spaceless(m[1]), price: spaceless(m[2]) }
  }
  const lead = LEADING_COUNT.exec(text)
  if (lead?.[1] !== undefined && Number(lead[1]) > 0)
    return { description: text.slice(lead[0].length).trim(), quantity: lead[1], price: null }
  return { description: text, quantity: null, price: null }
}

type Item = Record<string, string | null>

// A weight alone (`0,856 kg`): the quantity of a weighed article, on the row under its name.
const WEIGHT = new RegExp(`^(\\d{1,4}[.,]\\d{1,3})\\s*${WEIGHT_UNIT}\\.?$`, "iu")
// A price per unit of weight after its figure (`2,10 €/kg`).
const PER_UNIT = new RegExp(`\\s*${CURRENCY}?\\s*\\/\\s*${WEIGHT_UNIT}\\.?$`, "iu")

/**
 * A weighed article as a till prints it over two rows (`1 PLATANO` over `0,856 kg  2,10 €/kg  1,80`): its name
 * without the count of one, and the weight for its quantity; undefined where the rows are not such a pair.
 */
export const weighed = (name: string, under: string): { description: string; quantity: string } | undefined => {
  const lead = LEADING_COUNT.exec(name)
  const weight = WEIGHT.exec(under.trim())
  return lead?.[1] === "1" && weight?.[1] !== undefined
    ? { description: name.slice(lead[0].length).trim(), quantity: weight[1] }
    : undefined
}

/**
 * A name printed over its quantity's row, without a count of its own (`1 PLATANO` over `0,856 kg 2,10 €/kg 1,80`):
 * a count of one, or the row's quantity, opening it.
 */
const uncounted = (name: string, quantity: string | null): string => {
  const lead = quantity === null ? null : LEADING_COUNT.exec(name)
  return lead?.[1] !== undefined && (lead[1] === "1" || lead[1] === quantity) ? name.slice(lead[0].length).trim() : name
}

/** A unit price without its unit of weight (`2,10 €/kg` → `2,10`). */
export const perUnitless = (price: string): string => price.replace(PER_UNIT, "")

// A count or measure with its unit in a quantity's cell (`100 Nos`, `2 pcs`, `1,5 kg`, `8 hrs`), as Indian and
// other billing software print it.
const UNIT_AFTER = new RegExp(
  `^(\\d{1,6}(?:[.,]\\d{1,3})?)\\s*(?:${UNIT}|nos|units?|pieces?|hrs?|hours?|days?)\\.?$`,
  "iu"
)

/** A quantity's cell without the unit printed after its figure (`100 Nos` → `100`); other text as it is. */
export const unitless = (quantity: string): string => UNIT_AFTER.exec(quantity.trim())?.[1] ?? quantity

/**
 * Fills an item's quantity and unit price from its description when the table had no column for them; a count
 * of one makes the unit price the line amount.
 */
export const completeItem = (item: Item, roles: LineRoles): Item => {
  const { description, quantity, price, amount } = roles
  if (description === undefined || quantity === undefined) return item
  const text = item[description.name]
  if (text === null || text === undefined || item[quantity.name] !== null) return item
  const split = splitQuantity(text)
  if (split.quantity === null || split.description === "") return item
  // A quantity and price that do not make the line's amount are another line's (`AH BANANEN 1,49` with `2 X 0,89`,
  // the next line's, wrapped into its description): the item is left as read.
  const lineAmount = amount === undefined ? null : (item[amount.name] ?? null)
  if (split.price !== null && lineAmount !== null && !makesAmount(split.quantity, split.price, lineAmount)) return item
  const out: Item = { ...item, [description.name]: split.description, [quantity.name]: split.quantity }
  if (price !== undefined && out[price.name] === null)
    out[price.name] = split.price ?? (split.quantity === "1" ? lineAmount : null)
  return out
}

// The words an amount's column is headed with (`Betrag`, `Amount`, `Importe`): a row of only one and an amount is a
// label's, not an item's.
const AMOUNT_WORDS = new Set(columnLabels("amount"))

const NOT_ITEM = new Set([...NOT_TOTAL_WORDS, ...TAX_WORDS, ...CARRIED_FORWARD.filter((w) => !w.includes(" "))])

// A card's and the change's words that name goods as often (`CARTA IGIENICA`, `CARTE POSTALE`, `CAMBIO ACEITE`,
// `CHANGE PURSE`, `RESTO DEL CARLINO`): they make a row no line only with no word of its own beside them.
const GOODS_TOO = new Set(["carta", "carte", "cartao", "cambio", "change", "resto", "troco"])
const PAYMENT_CONTEXT = new Set([...NOT_ITEM, "credito", "debito", "bancaire", "bancaria", "sans", "contact", "euro"])

/** Whether a row's words say it is no line: a saving, a tax, a payment, the change, a count or a carried sum. */
const notItem = (row: Row): boolean => {
  const tokens = rowTokens(row)
  const own = tokens.some((t) => t.text.length >= 4 && !/\d/.test(t.text) && !PAYMENT_CONTEXT.has(t.text))
  return tokens.some((t) => NOT_ITEM.has(t.text) && (!GOODS_TOO.has(t.text) || !own))
}

// A speck OCR read after a figure as a mark (`7,34.`, `12,97.`, `6,11\``).
const SPECK = "[.,':;`´‘’]"

// What may follow a line's amount: nothing, or the till's tax class (`1,99 A`, `2,50 B`, `0,99 *`, `3,49 1`),
// or a GST code (Malaysia's standard and zero rate and exempt: `5.20 SR`, `3.00 ZR`, `1.50 E`); OCR may read a
// speck after the amount (glued to the class too: `5,39.B`), the class glued to it (`0,38A`: A to E, no unit's
// letter), a stroke before the class (`54,04 IB`, or apart from it and read as a one: `21,02 1 B`; or read as another
// figure glued to it: `65,95 5B`, `9,48 3B`), and the class twice (`62,28 A A`). The currency may stand between them
// (`3,30 € A`).
const TAX_CLASS = new RegExp(
  `^(?:\\s?(?:€|£|\\$|EUR|GBP|CHF))?(?:${SPECK}?|[A-E]|(?:${SPECK}\\s*|\\s+)(?:SR|ZR|(?:[Il|]|\\d(?=\\p{Lu})|[Il|1]\\s)?([\\p{Lu}\\d])(?:\\s+\\1)?))\\s*\\*?\\s*$`,
  "u"
)

const BARE = new RegExp(`^${SPECK}?$`)

/** Whether what follows a figure is only a speck OCR read after it, or nothing. */
const bare = (rest: string): boolean => BARE.test(rest.trim())

/** Whether a row starts the totals: a total or subtotal label (`Balance Due`, `Incidência`) opening it. */
export const endsItems = (row: Row): boolean =>
  findPhrases(splitsJoined(rowTokens(row), TOTAL_PHRASES), TOTAL_PHRASES)[0]?.from === 0

// A row that is only a quantity and a unit price: `4 ud. 9,23`, `6 x ( 0,95 )`, `0,465 kg x 1,48 EUR/kg`; or a
// count glued to a unit of count (`2UD 3,37`, `5.un 2,07`, `3u6,54`, as OCR reads them), given to a line only where
// it makes its amount (a size glued to a measure, `1L`, is a description's).
// OCR may read a speck after the price (`5 X 1,72.`) and a mark on a unit's capital (`6 ÚDS 12,72`): rows are
// matched folded.
// A row of only a quantity and its price; a speck OCR read before it is no matter (`.3 X 9, 94`).
// A row's unit price may have three decimals, as a litre of fuel or a kilo is priced (`38,52 l x 1,799 EUR/l`): the
// row is given to a line only where it makes its amount.
// A stroke OCR read alone before the price (`2 UN I 10,03`) is no matter either.
const QUANTITY_ROW = new RegExp(
  `^\\s*(?:${SPECK}\\s?)?${quantityPriceBody("(?:[Il|!]\\s)?(\\d{1,6}[.,] ?\\d{2,3})")}\\s*${SPECK}?\\s*$`,
  "iu"
)
const COUNT_ROW = new RegExp(
  `^\\s*(\\d{1,3})\\.?(?:ud|uds|un|und|unid|u|st|stk|pcs|pc|pce|pces|pz|pzs)\\.?\\s*${PRICE}\\s*${CURRENCY}?\\s*$`,
  "iu"
)

/**
 * A row of only a quantity and its price, its figures' `O` read as a zero where OCR read one for it (`6 UN O,74`):
 * given to a line only where it makes its amount, as every quantity row is.
 */
const quantityRow = (plain: string): RegExpExecArray | null => {
  const zeroed = plain.replace(/(?<![a-z])o(?=[.,] ?\d)|(?<=\d[.,]? ?)o(?![a-z])/g, "0")
  return QUANTITY_ROW.exec(zeroed) ?? COUNT_ROW.exec(zeroed)
}

/** A row's text when it is only a quantity and a unit price (`1,170 KG X 2,00 E/KG`, `2 X 0,89`), as `quantityRow`. */
export const quantityOnly = (text: string): { readonly quantity: string; readonly price: string } | undefined => {
  const only = quantityRow(folded(text))
  return only?.[1] === undefined || only[2] === undefined
    ? undefined
    : { quantity: spaceless(only[1]), price: spaceless(only[2]) }
}

// A count and a unit price alone, the times sign between them lost or misread as another mark (`6  9.97`, `5( 3.70`
// for `6 @ 9.97`, `5@ 3.70`).
const BARE_COUNT_ROW = new RegExp(`^\\s*(\\d{1,3})[^\\p{L}\\d\\s.,]?\\s+${PRICE}\\s*$`, "u")

/**
 * A count and unit price with no times sign between them, taken as a quantity row only where they make the last
 * amount of the row above or below: `2  5.00` under `MILK` is as often the count and the amount of the line.
 */
const bareQuantityRow = (rows: ReadonlyArray<Row>, index: number): RegExpExecArray | null => {
  const bare = BARE_COUNT_ROW.exec(rows[index]?.text ?? "")
  if (bare?.[1] === undefined || bare[2] === undefined) return null
  const [count, price] = [bare[1], spaceless(bare[2])]
  const near = [rows[index - 1], rows[index + 1]].map((r) => (r === undefined ? undefined : amounts(r.text).at(-1)))
  return near.some((a) => a?.decimals === true && makes(count, price, a.value)) ? bare : null
}

/** A number as written (`0,465`, `1.25`, `6`), or undefined. */
const numberOf = (text: string): number | undefined => {
  const value = Number(text.replace(",", "."))
  return Number.isFinite(value) ? value : undefined
}

/** Whether a quantity times a unit price makes a line amount (to the cent, as receipts round it). */
const product = (quantity: number | undefined, price: number | undefined, amount: number | undefined): boolean =>
  quantity !== undefined && price !== undefined && amount !== undefined && Math.abs(quantity * price - amount) < 0.011

const makes = (quantity: string, price: string, amount: number): boolean =>
  product(numberOf(quantity), numberOf(price), amount)

/** Whether a quantity times a unit price makes a line amount, the price and amount as printed (`€3.903,68`). */
export const makesAmount = (quantity: string, price: string, amount: string): boolean => {
  const [p, ...morePrices] = amounts(price)
  const [a, ...moreAmounts] = amounts(amount)
  return morePrices.length === 0 && moreAmounts.length === 0 && product(numberOf(quantity), p?.value, a?.value)
}

interface Line {
  readonly row: number
  readonly description: string
  readonly quantity: string | null
  readonly price: string | null
  readonly amount: Amount
}

/**
 * The count a read count is with its ones mended: those OCR lost put back (`1` for `11`, `2` for `12`), or those it
 * read twice taken out (`11` for `1`, a lone one read again) — the whole number of units the amount is at the unit
 * price, when the read count is it but for ones; undefined when the read count makes the amount, or nothing does.
 */
export const onesMended = (text: string, unit: string, total: string): string | undefined => {
  if (!/^\d{1,3}$/.test(text) || makesAmount(text, unit, total)) return undefined
  const [price] = amounts(unit)
  const [amount] = amounts(total)
  if (price === undefined || amount === undefined || price.value <= 0) return undefined
  const count = Math.round(amount.value / price.value)
  const whole = String(count)
  if (count < 1 || !makesAmount(whole, unit, total) || whole === text) return undefined
  // The longer of the two is the shorter with some ones more, the other figures in order.
  const [long, short] = whole.length > text.length ? [whole, text] : [text, whole]
  let at = 0
  for (const c of long)
    if (at < short.length && c === short[at]) at++
    else if (c !== "1") return undefined
  return at === short.length ? whole : undefined
}

/**
 * A row's line: the last amount is the line's; before it, a quantity and unit price (`2 x 1,25`), or a count
 * opening the row and a unit price before the amount that multiply to it (`4  BUTTER 250G  14.76  59.04`).
 */
const lineOf = (text: string, amount: Amount): Omit<Line, "row" | "amount"> => {
  // A currency sign or code glued before the amount is the amount's (`MILK  £0.95`, `MILO RM 12.47`).
  const before = text.slice(0, amount.start).replace(CURRENCY_BEFORE, "").trim()
  const price = amounts(before)
    .filter((a) => a.decimals)
    .at(-1)
  const lead = LEADING_COUNT_MARKED.exec(before)
  // A count may stand between the unit price and the amount (`10,71 1 10,71`, `Bulgur 0,89 × 2  1,78`): taken where
  // it makes the amount.
  const between = price === undefined ? undefined : COUNT_AFTER_PRICE.exec(before.slice(price.end))?.[1]
  // A minus OCR read after the unit price (`6 APPELS 1,40- 8,40`) is a speck where the count and price make the
  // amount: a price taken off is no line's unit price.
  const minus = price !== undefined && before.slice(price.end).trim() === "-"
  // So is a tax class OCR read after it as the amount's (`3  PÂTES 500G  12,29 B 36,87 B`).
  const classed = price !== undefined && /^\s*[A-E]$/.test(before.slice(price.end))
  if (price !== undefined && (bare(before.slice(price.end)) || minus || classed || between !== undefined)) {
    const rest = before.slice(0, price.start).replace(EACH, "").trim()
    // A count may stand in a cell of its own between the description and the unit price (`BANANAS | 2 | 1.25 |
    // 2.50`), taken where it makes the amount.
    const countCell = /^(.*\p{L}.*?)\s{2,}(\d{1,3})$/u.exec(rest)
    if (
      between === undefined &&
      countCell?.[1] !== undefined &&
      countCell[2] !== undefined &&
      makes(countCell[2], price.text, amount.value)
    )
      return { description: countCell[1].trim(), quantity: countCell[2], price: price.text }
    // The opening count as read, or with a one OCR lost or read twice (`11  TOMATOES  14.56  14.56`).
    const count =
      lead?.[1] === undefined || makes(lead[1], price.text, amount.value)
        ? lead?.[1]
        : onesMended(lead[1], price.text, amount.text)
    const counted = between !== undefined && makes(between, price.text, amount.value)
    if (count !== undefined && makes(count, price.text, amount.value) && (between === undefined || counted))
      return { description: rest.slice(lead?.[0].length ?? 0).trim(), quantity: count, price: price.text }
    if (counted) return { description: rest, quantity: between, price: price.text }
  }
  const split = splitQuantity(before, amount.value)
  // A quantity and price inside the text count only when they make the amount.
  if (split.price === null || (split.quantity !== null && makes(split.quantity, split.price, amount.value)))
    if (split.price !== null || price === undefined) return split
  if (price !== undefined && bare(before.slice(price.end)) && makes("1", price.text, amount.value))
    return { description: before.slice(0, price.start).trim(), quantity: null, price: null }
  return { description: before, quantity: null, price: null }
}

// A minus before an amount's currency sign (`Clubcard Price Saving  -£0.50`, `Coupon  -$1.00`) is the amount's sign.
const MINUS_CURRENCY = new RegExp(`-\\s?${CURRENCY}\\s?$`, "iu")

/** An amount with the minus printed before its currency sign, if any: the line takes the amount off. */
const signed = (text: string, amount: Amount): Amount => {
  const sign = MINUS_CURRENCY.exec(text.slice(0, amount.start))
  return sign === null || amount.value < 0
    ? amount
    : { ...amount, start: sign.index, text: `-${amount.text}`, value: -amount.value }
}

/**
 * The lines of a receipt with no header row, from its first page, before its first total: rows ending in an
 * amount after a description. A row of only a quantity and a unit price gives them to the line next to it (above
 * first, else below) whose amount they make; a row of words only is the description of a line whose figures
 * follow on the next row. A label (`Incidência:`) and a date are never a line.
 */
export const headerlessLines = (layout: Layout, roles: LineRoles, names: ReadonlyArray<string>): Array<Item> => {
  const { description, amount } = roles
  const target = amount ?? roles.price
  if (description === undefined || target === undefined) return []
  const page = layout.rows[0]?.page
  const rows = layout.rows.filter((r) => r.page === page)
  const lines: Array<Line> = []
  const quantities = new Map<number, { quantity: string; price: string }>()
  let pending: string | undefined
  for (const [index, row] of rows.entries()) {
    if (endsItems(row)) break
    const found = amounts(row.text)
    const closing =
      [...found].reverse().find((a) => a.decimals && TAX_CLASS.test(row.text.slice(a.end))) ?? found.at(-1)
    const last = closing === undefined ? undefined : signed(row.text, closing)
    // A date in brackets is the line's period (`Abonnement fibre (du 15/03/2024 au 14/04/2024)  29,99 €`), not a
    // stamp's row.
    const skip = dates(row.text.replace(/\([^()]*\)/g, "")).length > 0 || notItem(row)
    const plain = folded(row.text)
    const only = quantityRow(plain) ?? bareQuantityRow(rows, index)
    if (only?.[1] !== undefined && only[2] !== undefined) {
      quantities.set(index, { quantity: spaceless(only[1]), price: spaceless(only[2]) })
      continue
    }
    // A line's amount has its cents: one decimal is a measure (`Ctra. A-6 km 18,5`, a road's milestone).
    const cents = last !== undefined && /[.,]\d{2}$/.test(last.text)
    if (last === undefined || !cents || !TAX_CLASS.test(row.text.slice(last.end)) || skip) {
      // A size glued to its unit (`AGUA MINERAL 1,5L`) is no amount: the row is a description.
      const words = found.every((a) => !a.decimals || /^\p{L}/u.test(row.text.slice(a.end)))
      pending = words && !skip && /\p{L}{3}/u.test(row.text) ? row.text.trim() : undefined
      continue
    }
    const split = lineOf(row.text, last)
    // A label's row ends the lines: a colon before the amount, or only an amount's word (`Betrag EUR 70,59`).
    if (/:\s*$/.test(row.text.slice(0, last.start)) || AMOUNT_WORDS.has(folded(split.description))) break
    const described = /\p{L}{2}/u.test(split.description) && !UNIT_ONLY.test(split.description)
    const text = described ? split.description : pending === undefined ? undefined : uncounted(pending, split.quantity)
    pending = undefined
    if (text === undefined) continue
    lines.push({ row: index, ...split, description: withoutSpecks(withoutBarcode(text)), amount: last })
  }
  const used = new Set<number>()
  return lines.map((line) => {
    let { quantity, price } = line
    if (quantity === null || price === null)
      for (const at of [line.row - 1, line.row + 1]) {
        const q = quantities.get(at)
        if (q === undefined || used.has(at) || !makes(q.quantity, q.price, line.amount.value)) continue
        used.add(at)
        quantity = q.quantity
        price = q.price
        break
      }
    const item: Item = Object.fromEntries(names.map((n) => [n, null]))
    item[description.name] = line.description
    item[target.name] = line.amount.text
    if (roles.quantity !== undefined && quantity !== null) item[roles.quantity.name] = quantity
    // A count of one makes the unit price the line amount (as `completeItem` has it for tables).
    const unit = price ?? (quantity !== null && numberOf(quantity) === 1 ? line.amount.text : null)
    if (roles.price !== undefined && target !== roles.price && unit !== null) item[roles.price.name] = unit
    return item
  })
}
