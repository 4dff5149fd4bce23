/**
 * Tax identifiers and their check digits, as each country's tax authority publishes them. Every check takes the
 * literal as printed (separators, spaces and case are the printer's), keeps its letters and digits, and says
 * whether the shape is right and the check character agrees. Sources: AFIP RG 1817 (CUIT/CUIL); Real Decreto
 * 1065/2007 (NIF, NIE, CIF); SAT Anexo 20 (RFC); SII (RUT, módulo 11); DIAN (NIT, primos); SUNAT (RUC);
 * EU VIES formats per member state.
 */

/** Why an identifier was refused: its shape, or its check character. */
export type Failure = "format" | "checksum"

/** `undefined` when the identifier holds, else why not. */
export type Verdict = Failure | undefined

/** Letters and digits of a literal, upper-cased: what every check reads. */
export const compact = (literal: string): string => literal.toUpperCase().replace(/[^0-9A-ZÑ&]/g, "")

const digitsOf = (s: string): Array<number> => Array.from(s, (c) => c.charCodeAt(0) - 48)

const weighted = (digits: ReadonlyArray<number>, weights: ReadonlyArray<number>): number =>
  digits.reduce((sum, d, i) => sum + d * (weights[i] ?? 0), 0)

/** Argentina: CUIT and CUIL, 11 digits (type, document, check), módulo 11 with weights 5432765432. */
export const cuit = (literal: string): Verdict => {
  const id = compact(literal)
  if (!/^(20|23|24|25|26|27|30|33|34)\d{9}$/.test(id)) return "format"
  const digits = digitsOf(id)
  const rest = 11 - (weighted(digits.slice(0, 10), [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11)
  const check = rest === 11 ? 0 : rest
  return check === 10 || check !== digits[10] ? "checksum" : undefined
}

const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"

/** Spain: NIF of a person (DNI: 8 digits and a letter; K, L, M forms too) and NIE (X, Y or Z, 7 digits, a letter). */
export const nif = (literal: string): Verdict => {
  const id = compact(literal)
  const m = /^([XYZKLM]?)(\d{7,8})([A-Z])$/.exec(id)
  if (m === null) return "format"
  const [, prefix = "", number = "", letter] = m
  if ((prefix === "" ? 8 : 7) !== number.length) return "format"
  const lead = prefix === "" || "KLM".includes(prefix) ? "" : String("XYZ".indexOf(prefix))
  return DNI_LETTERS[Number(lead + number) % 23] === letter ? undefined : "checksum"
}

/** Spain: NIE only (foreigners' number: X, Y or Z first). */
export const nie = (literal: string): Verdict => (/^[XYZ]/.test(compact(literal)) ? nif(literal) : "format")

/** Spain: CIF of a company (a letter for its form, 7 digits, a check digit or letter). */
export const cif = (literal: string): Verdict => {
  const id = compact(literal)
  const m = /^([ABCDEFGHJNPQRSUVW])(\d{7})([0-9A-J])$/.exec(id)
  if (m === null) return "format"
  const [, kind = "", body = "", control = ""] = m
  const sum = digitsOf(body).reduce((s, d, i) => {
    if (i % 2 === 1) return s + d
    const doubled = d * 2
    return s + Math.floor(doubled / 10) + (doubled % 10)
  }, 0)
  const digit = (10 - (sum % 10)) % 10
  const letter = "JABCDEFGHI"[digit]
  // Some forms always print a letter (public bodies, foreign entities), some always a digit; the rest either.
  if ("NPQRSW".includes(kind)) return control === letter ? undefined : "checksum"
  if ("ABEH".includes(kind)) return control === String(digit) ? undefined : "checksum"
  return control === String(digit) || control === letter ? undefined : "checksum"
}

/** Spain: any NIF (a person's, a foreigner's or a company's). */
export const nifAny = (literal: string): Verdict => {
  const id = compact(literal)
  return /^[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]$/.test(id) ? cif(id) : nif(id)
}

const RFC_ALPHABET = "0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ"

/** Mexico: RFC, 12 characters (a company) or 13 (a person), with its date of birth or incorporation and homoclave. */
export const rfc = (literal: string): Verdict => {
  const id = compact(literal)
  const m = /^([A-ZÑ&]{3,4})(\d{2})(\d{2})(\d{2})([A-Z0-9]{2})([0-9A])$/.exec(id)
  if (m === null) return "format"
  const month = Number(m[3])
  const day = Number(m[4])
  if (month < 1 || month > 12 || day < 1 || day > 31) return "format"
  // The generic RFCs of the public and of foreigners carry no computed check digit.
  if (id === "XAXX010101000" || id === "XEXX010101000") return undefined
  const padded = id.length === 12 ? ` ${id}` : id
  const sum = Array.from(padded.slice(0, 12)).reduce((s, c, i) => s + RFC_ALPHABET.indexOf(c) * (13 - i), 0)
  const rest = sum % 11
  const check = rest === 0 ? "0" : rest === 1 ? "A" : String(11 - rest)
  return check === id.at(-1) ? undefined : "checksum"
}

/** Chile: RUT/RUN, a number and a check character (0–9 or K), módulo 11 with weights 2–7 from the right. */
export const rut = (literal: string): Verdict => {
  const id = compact(literal)
  const m = /^(\d{7,8})([0-9K])$/.exec(id)
  if (m === null) return "format"
  const [, body = "", control] = m
  const sum = digitsOf(body)
    .reverse()
    .reduce((s, d, i) => s + d * (2 + (i % 6)), 0)
  const rest = 11 - (sum % 11)
  const check = rest === 11 ? "0" : rest === 10 ? "K" : String(rest)
  return check === control ? undefined : "checksum"
}

const NIT_WEIGHTS = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71]

/** Colombia: NIT, up to 15 digits and a check digit (DIAN's prime weights from the right). */
export const nit = (literal: string): Verdict => {
  const id = compact(literal)
  if (!/^\d{6,16}$/.test(id)) return "format"
  const body = digitsOf(id.slice(0, -1)).reverse()
  const rest = weighted(body, NIT_WEIGHTS) % 11
  const check = rest > 1 ? 11 - rest : rest
  return String(check) === id.at(-1) ? undefined : "checksum"
}

/** Peru: RUC, 11 digits (10, 15, 16, 17 or 20 first), módulo 11 with weights 5432765432. */
export const ruc = (literal: string): Verdict => {
  const id = compact(literal)
  if (!/^(10|15|16|17|20)\d{9}$/.test(id)) return "format"
  const digits = digitsOf(id)
  const check = (11 - (weighted(digits.slice(0, 10), [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11)) % 10
  return check === digits[10] ? undefined : "checksum"
}

/**
 * EU VAT numbers (VIES): the member state's prefix and its national format. Check digits are verified where the
 * scheme is public and stable (AT, ES, IT, PT, BE, DE, NL, FR's key); other states are checked for shape only.
 */
export const vat = (literal: string): Verdict => {
  const id = compact(literal)
  const country = id.slice(0, 2)
  const rest = id.slice(2)
  const format = VAT_FORMATS[country]
  if (format === undefined || !format.test(rest)) return "format"
  return VAT_CHECKS[country]?.(rest)
}

const VAT_FORMATS: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[0-9A-Z]\d{7}[0-9A-Z]$/,
  FI: /^\d{8}$/,
  FR: /^[0-9A-HJ-NP-Z]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B(0[1-9]|[1-9]\d)$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{10}01$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  XI: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/
}

/** Luhn over a string of digits: the Italian partita IVA's check, France's SIREN and SIRET. */
export const luhn = (digits: string): boolean => {
  const sum = digitsOf(digits)
    .reverse()
    .reduce((s, d, i) => (i % 2 === 1 ? s + (d * 2 > 9 ? d * 2 - 9 : d * 2) : s + d), 0)
  return sum % 10 === 0
}

const VAT_CHECKS: Readonly<Record<string, (rest: string) => Verdict>> = {
  AT: (rest) => {
    const sum = digitsOf(rest.slice(1, 8)).reduce(
      (s, d, i) => (i % 2 === 1 ? s + Math.floor(d / 5) + ((d * 2) % 10) : s + d),
      0
    )
    return (10 - ((sum + 4) % 10)) % 10 === Number(rest[8]) ? undefined : "checksum"
  },
  ES: nifAny,
  IT: (rest) => (luhn(rest) ? undefined : "checksum"),
  PT: (rest) => {
    const digits = digitsOf(rest)
    const sum = weighted(digits.slice(0, 8), [9, 8, 7, 6, 5, 4, 3, 2])
    const check = 11 - (sum % 11)
    return (check >= 10 ? 0 : check) === digits[8] ? undefined : "checksum"
  },
  BE: (rest) => (97 - (Number(rest.slice(0, 8)) % 97) === Number(rest.slice(8)) ? undefined : "checksum"),
  DE: (rest) => {
    // ISO 7064 MOD 11,10.
    let product = 10
    for (const d of digitsOf(rest.slice(0, 8))) {
      let sum = (d + product) % 10
      if (sum === 0) sum = 10
      product = (2 * sum) % 11
    }
    const check = (11 - product) % 10
    return check === Number(rest[8]) ? undefined : "checksum"
  },
  NL: (rest) => {
    // Companies: the RSIN's "elfproef"; sole traders since 2020: MOD 97 over "NL" + the number, as in IBANs.
    const digits = digitsOf(rest.slice(0, 9))
    if (weighted(digits, [9, 8, 7, 6, 5, 4, 3, 2, -1]) % 11 === 0) return undefined
    return mod97(`${rest}2321`) === 1 ? undefined : "checksum"
  },
  FR: (rest) => {
    const key = rest.slice(0, 2)
    if (!/^\d{2}$/.test(key)) return undefined // the alphanumeric keys follow no public formula
    const siren = Number(rest.slice(2))
    return (12 + 3 * (siren % 97)) % 97 === Number(key) ? undefined : "checksum"
  }
}

/** The remainder of a long decimal number (letters A–Z counted 10–35) divided by 97, chunk by chunk. */
export const mod97 = (text: string): number => {
  let rest = 0
  for (const c of text) {
    const code = c.charCodeAt(0)
    const value = code >= 65 && code <= 90 ? String(code - 55) : c
    for (const d of value) rest = (rest * 10 + d.charCodeAt(0) - 48) % 97
  }
  return rest
}
