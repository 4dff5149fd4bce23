/** The sign-in: an API key, checked against the list endpoint before it is kept in sessionStorage. */
import { useState } from "preact/hooks"
import { call, Rejected } from "./api.js"
import type { Words } from "./i18n.js"

export const SignIn = ({
  t,
  reason,
  onKey
}: {
  t: Words
  reason: string | undefined
  onKey: (key: string) => void
}) => {
  const [error, setError] = useState<string | undefined>(reason)
  const [busy, setBusy] = useState(false)
  const submit = async (event: Event) => {
    event.preventDefault()
    const form = event.currentTarget as HTMLFormElement
    const input = form.elements.namedItem("key") as HTMLInputElement
    const key = input.value.trim()
    if (key === "") return setError(t.keyEmpty)
    setBusy(true)
    try {
      await call(key, "/v1/extractions?limit=1")
      input.value = ""
      onKey(key)
    } catch (cause) {
      setError(cause instanceof Rejected ? t.keyRejected : t.failed(cause instanceof Error ? cause.message : ""))
    } finally {
      setBusy(false)
    }
  }
  return (
    <main class="signin">
      <h1>{t.title}</h1>
      <form onSubmit={submit} autocomplete="off">
        <h2>{t.signInTitle}</h2>
        {error === undefined ? null : (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <label for="key">{t.apiKey}</label>
        <input id="key" name="key" type="password" autocomplete="off" spellcheck={false} required />
        <p class="hint">{t.keyHint}</p>
        <button type="submit" disabled={busy}>
          {t.signIn}
        </button>
      </form>
    </main>
  )
}
