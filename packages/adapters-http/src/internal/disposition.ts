/**
 * The download's `Content-Disposition` (RFC 6266): `attachment; filename="<ASCII fallback>"` plus
 * `filename*=UTF-8''<the exact name>` whenever the fallback had to differ. The fallback follows the RFC's
 * Appendix D: printable ASCII only, and none of `"` or `\` (user agents do not all implement quoted-pair escapes),
 * `%` (some decode percent escapes in it) or `/` (a path in a name a user agent might act on); each becomes `_`.
 */
import { create } from "content-disposition"
import { toWellFormed } from "./schemas.js"

const UNSAFE_IN_FALLBACK = /[^\x20-\x7e]|["\\%/]/g

/** The ASCII stand-in of a name for the `filename` parameter. */
export const fallback = (name: string): string => name.replace(UNSAFE_IN_FALLBACK, "_")

/** The header value for a stored name (a name that is not well-formed Unicode gets U+FFFD in place). */
export const header = (name: string): string => {
  const wellFormed = toWellFormed(name)
  return create(wellFormed, { fallback: fallback(wellFormed) })
}
