/**
 * A skill field's words as the checks, the document's arithmetic and the codes' concepts read them: folded like a
 * list search (`ListQuery.fold`: no accents, lower case), with `_`, `-` and `.` as spaces, so `cuit_emisor` and
 * "Nº de factura" read as words.
 */
import { fold } from "../ListQuery.js"

/** A text folded to words. */
export const foldWords = (s: string): string => fold(s).replace(/[_\-.]+/g, " ")

/** A field's name, aliases and description, each folded to words, in that order. */
export const wordsOf = (field: {
  readonly name: string
  readonly aliases: ReadonlyArray<string>
  readonly description: string
}): ReadonlyArray<string> => [field.name, ...field.aliases, field.description].map(foldWords)
