// The EPC QR code (European Payments Council, EPC069-12 "Quick Response Code: guidelines to enable data capture for
// the initiation of a SEPA credit transfer", v2.1 and v3.0): lines separated by LF or CR LF — `BCD`, version `001`
// or `002`, character set 1–8 (1 UTF-8, 2 ISO 8859-1, … 8 ISO 8859-15), `SCT`, BIC (mandatory in 001, optional in
// 002), beneficiary name (≤ 70), IBAN (≤ 34), amount `EUR` + 0.01–999999999.99 (optional), purpose (≤ 4),
// structured reference (≤ 35, ISO 11649 `RF…`) or unstructured text (≤ 140, one of the two), information (≤ 70).
import type { Epc } from "./schema.js"
import { ibanIsValid, Problems, rawOf } from "./text.js"

const charsets = [
  "UTF-8",
  "ISO-8859-1",
  "ISO-8859-2",
  "ISO-8859-4",
  "ISO-8859-5",
  "ISO-8859-7",
  "ISO-8859-10",
  "ISO-8859-15"
]

export const isEpc = (text: string): boolean => /^BCD\r?\n/.test(text)

export const decodeEpc = (raw: string, format: string | null): Epc => {
  const problems = new Problems()
  const lines = raw.split(/\r?\n/).map((line) => line.trim())
  const at = (index: number): string | null => {
    const value = lines[index]
    return value === undefined || value === "" ? null : value
  }
  const version = at(1)
  if (version !== "001" && version !== "002") problems.add("bad_value", `version ${version ?? "missing"}`, "version")
  const charsetCode = at(2)
  const charset =
    charsetCode !== null && /^[1-8]$/.test(charsetCode) ? (charsets[Number(charsetCode) - 1] ?? null) : null
  if (charset === null) problems.add("bad_value", `character set ${charsetCode ?? "missing"}`, "charset")
  if (at(3) !== "SCT") problems.add("bad_value", `identification ${at(3) ?? "missing"}, not SCT`, "identification")
  const bic = at(4)?.toUpperCase() ?? null
  if (bic === null && version === "001") problems.add("missing_member", "version 001 needs a BIC", "bic")
  if (bic !== null && !/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic)) problems.add("bad_value", `bic ${bic}`, "bic")
  const beneficiary = at(5)
  if (beneficiary === null) problems.add("missing_member", "no beneficiary name", "beneficiary")
  const ibanText = at(6)
  const iban = ibanText === null ? null : ibanText.replace(/\s+/g, "").toUpperCase()
  if (iban === null) problems.add("missing_member", "no IBAN", "iban")
  else if (!ibanIsValid(iban)) problems.add("bad_value", `iban ${iban} fails its check digits`, "iban")
  const amountText = at(7)
  const amount = amountText === null ? null : /^([A-Z]{3})(\d{1,9}(?:\.\d{1,2})?)$/.exec(amountText)
  if (amountText !== null && !amount) problems.add("bad_value", `amount ${amountText}`, "amount")
  const structured = at(9)
  const unstructured = at(10)
  if (structured !== null && unstructured !== null)
    problems.add("bad_value", "both a structured reference and a text", "reference")
  if (lines.length > 12 && lines.slice(12).some((line) => line !== ""))
    problems.add("bad_value", `${lines.length} lines, at most 12 expected`)
  return {
    _tag: "Epc",
    raw: rawOf(raw),
    format,
    problems: problems.list,
    version,
    charset,
    bic,
    beneficiary,
    iban,
    total: amount ? Number(amount[2]) : null,
    totalText: amountText,
    currency: amount ? (amount[1] ?? null) : null,
    purpose: at(8),
    reference: structured ?? unstructured,
    remittanceText: unstructured,
    information: at(11)
  }
}
