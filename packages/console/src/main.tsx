/**
 * The review console: state in one place (the key, the language, the list query and result, the open extraction),
 * views below it. The key lives in `sessionStorage` only; any 401 forgets it and shows the sign-in with the reason.
 * Navigation is the URL's fragment (`#/x/<id>`), which never holds the key.
 */
import { render } from "preact"
import { useCallback, useEffect, useLayoutEffect, useState } from "preact/hooks"
import { json, Rejected } from "./api.js"
import { Detail } from "./Detail.js"
import { browserLang, type Lang, words } from "./i18n.js"
import { List } from "./List.js"
import { initialQuery, listPath, type Query } from "./query.js"
import { SignIn } from "./SignIn.js"
import type { ListResponse } from "./types.js"

const KEY = "legible.apiKey"
const LANG = "legible.lang"

const storedLang = (): Lang | undefined => {
  const value = sessionStorage.getItem(LANG)
  return value === "es" || value === "en" ? value : undefined
}

const routeOf = (hash: string): string | undefined => /^#\/x\/([0-9a-fA-F-]{36})$/.exec(hash)?.[1]

const App = () => {
  const [apiKey, setApiKey] = useState<string | null>(() => sessionStorage.getItem(KEY))
  const [reason, setReason] = useState<string | undefined>(undefined)
  const [lang, setLang] = useState<Lang>(() => storedLang() ?? browserLang(navigator.languages))
  const [query, setQuery] = useState<Query>(initialQuery)
  const [list, setList] = useState<ListResponse | undefined>(undefined)
  const [open, setOpen] = useState<string | undefined>(() => routeOf(location.hash))
  const [error, setError] = useState<string | undefined>(undefined)
  const t = words[lang]

  // Before paint: the page never shows words of one language under the other's `lang` (screen readers read by it).
  useLayoutEffect(() => {
    document.documentElement.lang = lang
    document.title = t.title
    sessionStorage.setItem(LANG, lang)
  }, [lang])

  useEffect(() => {
    const onHash = () => setOpen(routeOf(location.hash))
    window.addEventListener("hashchange", onHash)
    return () => window.removeEventListener("hashchange", onHash)
  }, [])

  const signOut = useCallback((why: string | undefined) => {
    sessionStorage.removeItem(KEY)
    setApiKey(null)
    setList(undefined)
    setReason(why)
  }, [])

  const onError = useCallback(
    (cause: unknown) => {
      if (cause instanceof Rejected) signOut(words[lang].keyRejected)
      else setError(cause instanceof Error ? cause.message : String(cause))
    },
    [lang, signOut]
  )

  useEffect(() => {
    if (apiKey === null) return
    let live = true
    setError(undefined)
    json<ListResponse>(apiKey, listPath(query))
      .then((result) => live && setList(result))
      .catch((cause: unknown) => live && onError(cause))
    return () => {
      live = false
    }
  }, [apiKey, query, open === undefined])

  const step = useCallback(
    (by: 1 | -1) => {
      // From the address now, not the one of the last render: a key pressed just after a step steps from there.
      const current = routeOf(location.hash)
      const ids = list?.extractions.map((x) => x.id) ?? []
      const at = current === undefined ? -1 : ids.indexOf(current)
      const next = ids[at + by]
      if (next !== undefined) location.hash = `#/x/${next}`
    },
    [list]
  )
  const back = useCallback(() => {
    location.hash = "#/"
  }, [])

  if (apiKey === null) {
    return (
      <SignIn
        t={t}
        reason={reason}
        onKey={(key) => {
          sessionStorage.setItem(KEY, key)
          setReason(undefined)
          setApiKey(key)
        }}
      />
    )
  }
  return (
    <>
      <header class="top">
        <a class="brand" href="#/">
          {t.title}
        </a>
        <label class="lang">
          {t.language}{" "}
          <select value={lang} onChange={(e) => setLang((e.currentTarget as HTMLSelectElement).value as Lang)}>
            <option value="es">Español</option>
            <option value="en">English</option>
          </select>
        </label>
        <button type="button" onClick={() => signOut(undefined)}>
          {t.signOut}
        </button>
      </header>
      {error === undefined ? null : (
        <p class="error" role="alert">
          {t.failed(error)}
        </p>
      )}
      {open === undefined ? (
        <List t={t} lang={lang} query={query} result={list} onQuery={setQuery} />
      ) : (
        <Detail key={open} t={t} apiKey={apiKey} id={open} onError={onError} onBack={back} onStep={step} />
      )}
    </>
  )
}

const root = document.getElementById("app")
if (root !== null) render(<App />, root)
