/**
 * The document's pages: each page image (fetched with the key, shown from a `blob:` URL) with the OCR word boxes
 * over it, placed in the page's points (`X-Page-Width`/`X-Page-Height`) as percentages, so zoom only scales the page.
 */
import { useEffect, useRef, useState } from "preact/hooks"
import { call } from "./api.js"
import type { Words } from "./i18n.js"
import type { Word } from "./types.js"

/** The width the console asks page images at, in pixels. */
export const IMAGE_WIDTH = 1000

interface Loaded {
  readonly url: string
  readonly width: number
  readonly height: number
}

interface PageProps {
  readonly apiKey: string
  readonly extractionId: string
  readonly page: number
  readonly words: ReadonlyArray<Word>
  readonly zoom: number
  readonly t: Words
  /** Word ids to highlight (the hovered or selected value's). */
  readonly highlighted: ReadonlySet<string>
  readonly selectedWord: string | undefined
  readonly onWord: (word: Word) => void
  readonly onDrawn: (page: number) => void
  readonly onError: (error: unknown) => void
}

const percent = (n: number) => `${(n * 100).toFixed(4)}%`

const Page = (props: PageProps) => {
  const { apiKey, extractionId, page } = props
  const [loaded, setLoaded] = useState<Loaded | undefined>(undefined)
  useEffect(() => {
    let url: string | undefined
    let live = true
    call(apiKey, `/v1/extractions/${encodeURIComponent(extractionId)}/pages/${page}?width=${IMAGE_WIDTH}`)
      .then(async (response) => {
        const width = Number(response.headers.get("x-page-width"))
        const height = Number(response.headers.get("x-page-height"))
        const blob = await response.blob()
        if (!live) return
        url = URL.createObjectURL(blob)
        setLoaded({ url, width, height })
      })
      .catch((error: unknown) => {
        if (live) props.onError(error)
      })
    return () => {
      live = false
      if (url !== undefined) URL.revokeObjectURL(url)
    }
  }, [apiKey, extractionId, page])
  // One listener for the page's words (a click on a box picks its word), rather than one per box.
  const layer = useRef<HTMLDivElement>(null)
  const byId = new Map(props.words.map((w) => [w.id, w]))
  const onWordRef = useRef(props.onWord)
  onWordRef.current = props.onWord
  useEffect(() => {
    const element = layer.current
    if (element === null) return
    const onClick = (event: MouseEvent) => {
      const id = (event.target as HTMLElement).dataset.wordId
      const word = id === undefined ? undefined : byId.get(id)
      if (word !== undefined) onWordRef.current(word)
    }
    element.addEventListener("click", onClick)
    return () => element.removeEventListener("click", onClick)
  })
  const aspect = loaded === undefined ? Math.SQRT2 : loaded.height / loaded.width
  return (
    <figure class="page" data-page={page} style={{ width: `${IMAGE_WIDTH * props.zoom}px` }}>
      <div class="sheet" style={{ paddingTop: percent(aspect) }}>
        {loaded === undefined ? (
          <span class="loading">{props.t.loading}</span>
        ) : (
          <>
            <img src={loaded.url} alt={props.t.pageAlt(page)} onLoad={() => props.onDrawn(page)} />
            <div class="words" aria-hidden="true" ref={layer}>
              {props.words.map((w) => (
                <div
                  key={w.id}
                  class={`word${props.highlighted.has(w.id) ? " hl" : ""}${props.selectedWord === w.id ? " picked" : ""}`}
                  data-word-id={w.id}
                  title={w.word}
                  style={{
                    left: percent(w.x0 / loaded.width),
                    top: percent(w.y0 / loaded.height),
                    width: percent((w.x1 - w.x0) / loaded.width),
                    height: percent((w.y1 - w.y0) / loaded.height)
                  }}
                />
              ))}
            </div>
          </>
        )}
      </div>
      <figcaption>{props.t.pageLabel(page)}</figcaption>
    </figure>
  )
}

/** Every page of the document, in order. */
export const Pages = (
  props: Omit<PageProps, "page" | "words"> & { numPages: number; words: Readonly<Record<string, ReadonlyArray<Word>>> }
) => (
  <div class="pages">
    {Array.from({ length: props.numPages }, (_, i) => i + 1).map((page) => (
      <Page key={page} {...props} page={page} words={props.words[String(page)] ?? []} />
    ))}
  </div>
)
