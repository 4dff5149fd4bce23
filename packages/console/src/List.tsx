/** The extraction list: the spec's filters, counts, status chips and paging. */
import { useEffect, useState } from "preact/hooks"
import type { Words } from "./i18n.js"
import { PAGE_SIZE, type Query } from "./query.js"
import { type ListResponse, STATUSES, type Status } from "./types.js"

interface Props {
  readonly t: Words
  readonly lang: string
  readonly query: Query
  readonly result: ListResponse | undefined
  readonly onQuery: (query: Query) => void
}

/** A status as a coloured chip with its name in the console's language. */
export const Chip = ({ status, t }: { status: Status; t: Words }) => (
  <span class={`chip chip-${status.replace(" ", "-")}`}>{t.statuses[status] ?? status}</span>
)

const when = (iso: string, lang: string) =>
  new Date(iso).toLocaleString(lang, { dateStyle: "short", timeStyle: "short" })

// The form edits a draft of the query (so a list that re-renders meanwhile keeps what was typed); Apply sends it.
const Filters = ({ t, query, onQuery }: Omit<Props, "result" | "lang">) => {
  const [draft, setDraft] = useState<Query>(query)
  useEffect(() => setDraft(query), [query])
  const set = <K extends keyof Query>(name: K, value: Query[K]) => setDraft((d) => ({ ...d, [name]: value }))
  const text = (event: Event) => (event.currentTarget as HTMLInputElement | HTMLSelectElement).value
  const toggle = (status: Status, on: boolean) =>
    setDraft((d) => ({ ...d, status: STATUSES.filter((s) => (s === status ? on : d.status.includes(s))) }))
  const submit = (event: Event) => {
    event.preventDefault()
    onQuery({ ...draft, offset: 0 })
  }
  return (
    <form class="filters" onSubmit={submit} aria-label={t.filters}>
      <fieldset class="statuses">
        <legend>{t.status}</legend>
        {STATUSES.map((s) => (
          <label key={s} class="check">
            <input
              type="checkbox"
              name="status"
              value={s}
              checked={draft.status.includes(s)}
              onChange={(e) => toggle(s, (e.currentTarget as HTMLInputElement).checked)}
            />{" "}
            {t.statuses[s]}
          </label>
        ))}
      </fieldset>
      <label>
        {t.skill}
        <input name="skill" value={draft.skill} onInput={(e) => set("skill", text(e))} />
      </label>
      <label>
        {t.from}
        <input type="date" name="start" value={draft.start} onInput={(e) => set("start", text(e))} />
      </label>
      <label>
        {t.to}
        <input type="date" name="end" value={draft.end} onInput={(e) => set("end", text(e))} />
      </label>
      <label>
        {t.search}
        <input type="search" name="search" value={draft.search} onInput={(e) => set("search", text(e))} />
      </label>
      <label>
        {t.sortBy}
        <select name="sortBy" value={draft.sortBy} onChange={(e) => set("sortBy", text(e) as Query["sortBy"])}>
          <option value="fecha_creacion">{t.byDate}</option>
          <option value="status">{t.byStatus}</option>
          <option value="origin_name">{t.byName}</option>
        </select>
      </label>
      <label>
        {t.sortOrder}
        <select
          name="sortOrder"
          value={draft.sortOrder}
          onChange={(e) => set("sortOrder", text(e) as Query["sortOrder"])}
        >
          <option value="desc">{t.desc}</option>
          <option value="asc">{t.asc}</option>
        </select>
      </label>
      <label class="check">
        <input
          type="checkbox"
          name="archived"
          checked={draft.archived}
          onChange={(e) => set("archived", (e.currentTarget as HTMLInputElement).checked)}
        />{" "}
        {t.archived}
      </label>
      <button type="submit">{t.apply}</button>
    </form>
  )
}

export const List = (props: Props) => {
  const { t, query, result, onQuery } = props
  const pages = result === undefined ? 1 : Math.max(1, Math.ceil(result.count / PAGE_SIZE))
  const current = Math.floor(query.offset / PAGE_SIZE) + 1
  return (
    <main class="list-view">
      <h1>{t.extractions}</h1>
      <Filters t={t} query={query} onQuery={onQuery} />
      {result === undefined ? (
        <p>{t.loading}</p>
      ) : (
        <>
          <p class="count" aria-live="polite">
            {t.count(result.count)}
          </p>
          {result.extractions.length === 0 ? (
            <p>{t.none}</p>
          ) : (
            <table class="extractions">
              <thead>
                <tr>
                  <th scope="col">{t.file}</th>
                  <th scope="col">{t.status}</th>
                  <th scope="col">{t.skillName}</th>
                  <th scope="col">{t.created}</th>
                  <th scope="col">{t.modified}</th>
                </tr>
              </thead>
              <tbody>
                {result.extractions.map((x) => (
                  <tr key={x.id} data-id={x.id}>
                    <td>
                      <a href={`#/x/${x.id}`}>{x.origin_name}</a>
                    </td>
                    <td>
                      <Chip status={x.status} t={t} />
                    </td>
                    <td>{x.skill_name}</td>
                    <td>{when(x.extraction_date, props.lang)}</td>
                    <td>{when(x.last_modification, props.lang)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <nav class="paging" aria-label={t.page(current, pages)}>
            <button
              type="button"
              disabled={query.offset === 0}
              onClick={() => onQuery({ ...query, offset: Math.max(0, query.offset - PAGE_SIZE) })}
            >
              {t.previous}
            </button>
            <span>{t.page(current, pages)}</span>
            <button
              type="button"
              disabled={current >= pages}
              onClick={() => onQuery({ ...query, offset: query.offset + PAGE_SIZE })}
            >
              {t.next}
            </button>
          </nav>
        </>
      )}
    </main>
  )
}
