/**
 * An amount a field asks for by its unit (`litros`, `Consumo en kWh`, `peso_kg`, `precio_litro`) where no label
 * names it: the one quantity the document prints with that unit (`45,20 l`, `312 kWh`), or for a price per unit the
 * one rate printed per that unit (`1,789 EUR/l`, `0,245 €/kWh`). Two different ones leave it empty.
 */
import { type Found, found } from "./evidence.js"
import { fieldWords, type Target } from "./labels.js"
import type { Layout } from "./layout.js"

// Each unit: the words a field names it with, and how documents print it after a figure.
const UNITS: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
  [
    ["litros", "litro", "liters", "litres", "liter", "litre", "litri", "l", "ltr"],
    "l|lt|ltr|ltrs|litros?|lit(?:er|re)s?"
  ],
  [["kwh"], "kwh"],
  [["kg", "kilos", "kilogramos", "kilograms", "kilogramm", "kilogrammes", "chilogrammi", "quilos"], "kg|kgs|kilos?"],
  [["m3", "metros cubicos", "cubic"], "m3|m³"],
  [["km", "kms", "kilometros", "kilometres", "kilometers", "kilometer", "chilometri", "quilometros"], "km|kms"]
]

// A field's words for a price (`precio por litro`, `price_per_kwh`, `Literpreis`).
const PRICE = new Set([
  "precio",
  "price",
  "preis",
  "prix",
  "prezzo",
  "preco",
  "prijs",
  "tarifa",
  "rate",
  "coste",
  "cost"
])

const FIGURE = String.raw`\d{1,6}(?:[.,]\d{1,4})?`
const CURRENCY = String.raw`(?:€|eur|euros?|\$|usd|£|gbp|chf)?`

/** The unit a numeric field names, and whether it asks for a price per that unit. */
const unitOf = (target: Target): { readonly pattern: string; readonly rate: boolean } | undefined => {
  if (target.type !== "float" && target.type !== "integer") return undefined
  const words = fieldWords(target)
  const unit = UNITS.find(([names]) => names.some((n) => words.has(n)))
  return unit === undefined ? undefined : { pattern: unit[1], rate: [...words].some((w) => PRICE.has(w)) }
}

/** The one figure printed with the unit a field names (or per it, for a price), if the field names one. */
export const unitAmount = (layout: Layout, target: Target): Found | null => {
  const unit = unitOf(target)
  if (unit === undefined) return null
  const pattern = unit.rate
    ? new RegExp(`(?<![\\d.,])(${FIGURE})\\s?${CURRENCY}\\s?/\\s?(?:${unit.pattern})(?![\\p{L}\\d])`, "giu")
    : new RegExp(`(?<![\\d.,/])(${FIGURE})\\s?(?:${unit.pattern})\\.?(?![\\p{L}\\d/])`, "giu")
  const values = new Set(layout.rows.flatMap((row) => [...row.text.matchAll(pattern)].map((m) => m[1] ?? "")))
  const [value] = values
  return values.size === 1 && value !== undefined ? found(value, "layout") : null
}
