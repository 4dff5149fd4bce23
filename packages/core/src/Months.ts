/**
 * Month names and their abbreviations, folded (lower case, no accents), in Spanish, English, German, French,
 * Italian, Portuguese and Dutch: one list for core's reading of written dates and the local extractor's finding of
 * them.
 */

/** Each month's names, January first. */
export const byMonth: ReadonlyArray<ReadonlyArray<string>> = [
  ["enero", "ene", "january", "jan", "januar", "janner", "janvier", "janv", "gennaio", "gen", "janeiro", "januari"],
  ["febrero", "feb", "february", "februar", "fevrier", "fevr", "fev", "febbraio", "fevereiro", "februari"],
  ["marzo", "mar", "march", "marz", "maerz", "mrz", "mars", "marco", "maart", "mrt"],
  ["abril", "abr", "april", "apr", "avril", "avr", "aprile"],
  ["mayo", "may", "mai", "maggio", "mag", "maio", "mei"],
  ["junio", "jun", "june", "juni", "juin", "giugno", "giu", "junho"],
  ["julio", "jul", "july", "juli", "juillet", "juil", "luglio", "lug", "julho"],
  ["agosto", "ago", "august", "aug", "aout", "augustus"],
  ["septiembre", "setiembre", "sep", "sept", "set", "september", "septembre", "settembre", "sett", "setembro"],
  ["octubre", "oct", "october", "oktober", "okt", "octobre", "ottobre", "ott", "outubro", "out"],
  ["noviembre", "nov", "november", "novembre", "novembro"],
  ["diciembre", "dic", "december", "dec", "dezember", "dez", "decembre", "dicembre", "dezembro"]
]

const NUMBERS: ReadonlyMap<string, number> = new Map(
  byMonth.flatMap((names, i) => names.map((n) => [n, i + 1] as const))
)

/** The month (1–12) a folded name or abbreviation stands for, or undefined. */
export const monthOf = (name: string): number | undefined => NUMBERS.get(name)
