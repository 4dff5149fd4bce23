/**
 * One extraction: its pages with the word boxes, its fields, the status switch (spec 4.6) and the download. Hover or
 * select a value → its words are highlighted and scrolled into view; select a word → the values it supports.
 */
import { useEffect, useMemo, useState } from "preact/hooks"
import { call, json } from "./api.js"
import { Fields, type Selection } from "./Fields.js"
import type { Words } from "./i18n.js"
import { Chip } from "./List.js"
import { Pages } from "./Pages.js"
import type { Detailed, Word } from "./types.js"
import { entries, supportsOf } from "./values.js"

interface Props {
  readonly t: Words
  readonly apiKey: string
  readonly id: string
  readonly onError: (error: unknown) => void
  readonly onBack: () => void
  readonly onStep: (step: 1 | -1) => void
}

const ZOOMS = [0.5, 0.67, 0.8, 1, 1.25, 1.5, 2]

const StatusSwitch = ({
  t,
  detail,
  onSwitch
}: {
  t: Words
  detail: Detailed
  onSwitch: (to: "completado" | "incompleto", message: string) => void
}) => {
  if (detail.status === "completado") {
    return (
      <form
        class="switch"
        onSubmit={(event) => {
          event.preventDefault()
          const data = new FormData(event.currentTarget as HTMLFormElement)
          onSwitch("incompleto", String(data.get("message") ?? ""))
        }}
      >
        <label for="message">{t.message}</label>
        <textarea id="message" name="message" rows={2} />
        <button type="submit">{t.markIncomplete}</button>
      </form>
    )
  }
  if (detail.status === "incompleto") {
    return (
      <div class="switch">
        <button type="button" onClick={() => onSwitch("completado", "")}>
          {t.markComplete}
        </button>
      </div>
    )
  }
  return null
}

export const Detail = ({ t, apiKey, id, onError, onBack, onStep }: Props) => {
  const [detail, setDetail] = useState<Detailed | undefined>(undefined)
  const [zoom, setZoom] = useState(0.67)
  const [hovered, setHovered] = useState<string | undefined>(undefined)
  const [selected, setSelected] = useState<string | undefined>(undefined)
  const [picked, setPicked] = useState<Word | undefined>(undefined)
  const [drawn, setDrawn] = useState<ReadonlySet<number>>(new Set())
  const [notice, setNotice] = useState<string | undefined>(undefined)

  useEffect(() => {
    let live = true
    setDetail(undefined)
    setSelected(undefined)
    setPicked(undefined)
    setDrawn(new Set())
    setNotice(undefined)
    json<Detailed>(apiKey, `/v1/extractions/${encodeURIComponent(id)}/detailed`)
      .then((d) => live && setDetail(d))
      .catch((error: unknown) => live && onError(error))
    return () => {
      live = false
    }
  }, [apiKey, id])

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null
      if (target !== null && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return
      if (event.key === "j") onStep(1)
      else if (event.key === "k") onStep(-1)
      else if (event.key === "Escape") onBack()
    }
    document.addEventListener("keydown", onKey)
    return () => document.removeEventListener("keydown", onKey)
  }, [onStep, onBack])

  const all = useMemo(() => entries(detail?.fields ?? []), [detail])
  const supports = useMemo(() => supportsOf(all), [all])
  const byPath = useMemo(() => new Map(all.map((e) => [e.path, e])), [all])
  const active = hovered ?? selected
  const highlighted = useMemo(
    () => new Set(active === undefined ? [] : (byPath.get(active)?.wordIds ?? [])),
    [active, byPath]
  )
  const supported = useMemo(
    () => new Set((picked === undefined ? [] : (supports.get(picked.id) ?? [])).map((e) => e.path)),
    [picked, supports]
  )

  const select = (path: string) => {
    setSelected(path)
    setPicked(undefined)
    const first = byPath.get(path)?.wordIds[0]
    if (first !== undefined) {
      document
        .querySelector(`[data-word-id="${CSS.escape(first)}"]`)
        ?.scrollIntoView({ block: "center", inline: "center" })
    }
  }
  const pickWord = (word: Word) => {
    setPicked(word)
    setSelected(undefined)
    const first = supports.get(word.id)?.[0]
    if (first !== undefined) {
      document.querySelector(`[data-path="${CSS.escape(first.path)}"]`)?.scrollIntoView({ block: "nearest" })
    }
  }
  const selection: Selection = { hovered, selected, supported, hover: setHovered, select }

  const download = async () => {
    try {
      const response = await call(apiKey, `/v1/extractions/${encodeURIComponent(id)}/document`)
      const url = URL.createObjectURL(await response.blob())
      const link = document.createElement("a")
      link.href = url
      link.download = detail?.origin_name ?? "document"
      link.click()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
    } catch (error) {
      onError(error)
    }
  }

  const switchTo = async (to: "completado" | "incompleto", message: string) => {
    try {
      const body = to === "incompleto" && message.trim() !== "" ? { status: to, message } : { status: to }
      const answer = await json<{ extraction: { status: Detailed["status"]; error_message?: string } }>(
        apiKey,
        `/v1/extractions/${encodeURIComponent(id)}/status`,
        { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }
      )
      setDetail((d) => {
        if (d === undefined) return d
        const { error_message: _old, ...rest } = d
        const next = answer.extraction.error_message
        return { ...rest, status: answer.extraction.status, ...(next === undefined ? {} : { error_message: next }) }
      })
      setNotice(t.statusChanged(t.statuses[answer.extraction.status] ?? answer.extraction.status))
    } catch (error) {
      onError(error)
    }
  }

  if (detail === undefined)
    return (
      <main class="detail">
        <p>{t.loading}</p>
      </main>
    )
  const numPages = detail.num_pages ?? 0
  const ready = drawn.size >= numPages
  const zoomAt = ZOOMS.indexOf(zoom)
  const pickedSupports = picked === undefined ? [] : (supports.get(picked.id) ?? [])
  return (
    <main class="detail" data-state={ready ? "ready" : "loading"}>
      <div class="toolbar">
        <button type="button" onClick={onBack}>
          ← {t.back}
        </button>
        <button type="button" onClick={() => onStep(-1)} aria-keyshortcuts="k">
          {t.previous}
        </button>
        <button type="button" onClick={() => onStep(1)} aria-keyshortcuts="j">
          {t.next}
        </button>
        <span class="sep" />
        <button
          type="button"
          aria-label={t.zoomOut}
          disabled={zoomAt <= 0}
          onClick={() => setZoom(ZOOMS[zoomAt - 1] ?? zoom)}
        >
          −
        </button>
        <output class="zoom">{Math.round(zoom * 100)} %</output>
        <button
          type="button"
          aria-label={t.zoomIn}
          disabled={zoomAt >= ZOOMS.length - 1}
          onClick={() => setZoom(ZOOMS[zoomAt + 1] ?? zoom)}
        >
          +
        </button>
        <span class="sep" />
        <button type="button" onClick={download}>
          {t.download}
        </button>
        <span class="hint">{t.keys}</span>
      </div>
      <h1 class="doc-title">
        <span class="name">{detail.origin_name}</span> <Chip status={detail.status} t={t} />{" "}
        <span class="skill">{detail.skill_name}</span>
      </h1>
      {notice === undefined ? null : (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {detail.error_message === undefined ? null : (
        <p class="review-message">
          <strong>{t.errorMessage}:</strong> {detail.error_message}
        </p>
      )}
      <div class="split">
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe: scrollable-region-focusable) */}
        <section class="viewer" aria-label={t.file} tabIndex={0}>
          {numPages === 0 ? (
            <p>{t.notReady}</p>
          ) : (
            <Pages
              apiKey={apiKey}
              extractionId={id}
              numPages={numPages}
              words={detail.words ?? {}}
              zoom={zoom}
              t={t}
              highlighted={highlighted}
              selectedWord={picked?.id}
              onWord={pickWord}
              onDrawn={(page) => setDrawn((d) => new Set([...d, page]))}
              onError={onError}
            />
          )}
        </section>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe: scrollable-region-focusable) */}
        <section class="panel" aria-labelledby="fields-title" tabIndex={0}>
          <StatusSwitch t={t} detail={detail} onSwitch={switchTo} />
          {picked === undefined ? null : (
            <div class="word-supports" role="status">
              {pickedSupports.length === 0 ? (
                t.wordSupportsNothing(picked.word)
              ) : (
                <>
                  {t.wordSupports(picked.word)}
                  <ul>
                    {pickedSupports.map((e) => (
                      <li key={e.path}>
                        <button type="button" class="link" onClick={() => select(e.path)}>
                          {e.label}
                        </button>
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </div>
          )}
          <h2 id="fields-title">{t.fields}</h2>
          {detail.fields === undefined ? (
            <p>{t.notReady}</p>
          ) : (
            <Fields t={t} selection={selection} fields={detail.fields} />
          )}
        </section>
      </div>
    </main>
  )
}
