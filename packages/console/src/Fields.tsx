/** The fields panel: fields in the skill's order, objects nested, lists as tables, catalog matches, each value selectable. */
import type { Words } from "./i18n.js"
import {
  type CatalogValue,
  type Field,
  isCatalog,
  isField,
  isSimple,
  type ListItem,
  type SimpleValue
} from "./types.js"
import { doubtful } from "./values.js"

/** What the panel shares with the page view. */
export interface Selection {
  readonly hovered: string | undefined
  readonly selected: string | undefined
  /** Paths of the values the selected word supports. */
  readonly supported: ReadonlySet<string>
  readonly hover: (path: string | undefined) => void
  readonly select: (path: string) => void
}

interface Props {
  readonly t: Words
  readonly selection: Selection
}

const parsedText = (parsed: SimpleValue["parsed"]): string => (parsed === null ? "—" : String(parsed))

const Confidence = ({ value, t }: { value: SimpleValue | CatalogValue; t: Words }) => {
  if (value.confidence === undefined) return null
  const percent = value.confidence === null ? "—" : `${Math.round(value.confidence * 100)} %`
  return (
    <span class={`confidence${doubtful(value) ? " doubt" : ""}`}>
      {t.confidence}: {percent}
      {doubtful(value) ? <strong class="flag"> ⚠ {t.doubtful}</strong> : null}
    </span>
  )
}

const Reasons = ({ value, t }: { value: SimpleValue | CatalogValue; t: Words }) =>
  value.reasons === undefined || value.reasons.length === 0 ? null : (
    <span class="reasons">
      <span class="key">{t.reasons}:</span>
      {value.reasons.map((reason) => (
        <span class="reason" key={reason.code}>
          <code>{reason.code}</code> {reason.message}
        </span>
      ))}
    </span>
  )

const stateClass = (path: string, selection: Selection): string =>
  [
    selection.selected === path ? "selected" : "",
    selection.hovered === path ? "hovered" : "",
    selection.supported.has(path) ? "supported" : ""
  ]
    .filter((c) => c !== "")
    .join(" ")

const percentOf = (value: SimpleValue | CatalogValue): string =>
  value.confidence === undefined ? "" : value.confidence === null ? "—" : `${Math.round(value.confidence * 100)} %`

// A list cell: the literal, the parsed value when it reads differently, the confidence and the reasons' codes.
const Compact = ({ label, value, t }: { label: string; value: SimpleValue; t: Words }) => (
  <>
    <span class="sr-only">{label}: </span>
    <span class="literal">{value.literal === "" ? t.empty : value.literal}</span>
    <span class="meta">
      {String(value.parsed) === value.literal ? "" : `→ ${parsedText(value.parsed)} · `}
      {percentOf(value)}
      {doubtful(value) ? <strong class="flag"> ⚠ {t.doubtful}</strong> : null}
    </span>
    {value.reasons === undefined || value.reasons.length === 0 ? null : (
      <span class="meta">
        {value.reasons.map((r) => (
          <code key={r.code} title={r.message}>
            {r.code}{" "}
          </code>
        ))}
      </span>
    )}
  </>
)

const Simple = ({
  path,
  label,
  value,
  t,
  selection,
  compact
}: Props & { path: string; label: string; value: SimpleValue; compact?: boolean }) => (
  <button
    type="button"
    class={`value ${stateClass(path, selection)}${doubtful(value) ? " doubtful" : ""}`}
    data-path={path}
    aria-pressed={selection.selected === path}
    onMouseEnter={() => selection.hover(path)}
    onMouseLeave={() => selection.hover(undefined)}
    onFocus={() => selection.hover(path)}
    onBlur={() => selection.hover(undefined)}
    onClick={() => selection.select(path)}
  >
    {compact === true ? <Compact label={label} value={value} t={t} /> : <Full label={label} value={value} t={t} />}
  </button>
)

const Full = ({ label, value, t }: { label: string; value: SimpleValue; t: Words }) => (
  <>
    <span class="label">{label}</span>
    <span class="literal">
      <span class="key">{t.literal}:</span> {value.literal === "" ? t.empty : value.literal}
    </span>
    <span class="parsed">
      <span class="key">{t.parsed}:</span> {parsedText(value.parsed)}
    </span>
    <Confidence value={value} t={t} />
    <Reasons value={value} t={t} />
  </>
)

const Catalog = ({
  path,
  label,
  value,
  t,
  selection
}: Props & { path: string; label: string; value: CatalogValue }) => (
  <div class={`value catalog ${stateClass(path, selection)}`} data-path={path}>
    <span class="label">
      {label} · {t.catalog} {value.catalog_info.name}
    </span>
    <span>
      {value.matching.status === "found" ? t.matched : t.notMatched} · {t.method}: {value.matching.method} · {t.score}:{" "}
      {value.matching.score.toFixed(2)}
    </span>
    {Object.keys(value.catalog_values).length > 0 ? (
      <table class="record">
        <tbody>
          {Object.entries(value.catalog_values).map(([column, cell]) => (
            <tr key={column}>
              <th scope="row">{column}</th>
              <td>{cell}</td>
            </tr>
          ))}
        </tbody>
      </table>
    ) : null}
    <Confidence value={value} t={t} />
    <Reasons value={value} t={t} />
  </div>
)

const One = (props: Props & { path: string; label: string; value: SimpleValue | CatalogValue; compact?: boolean }) =>
  isCatalog(props.value) ? <Catalog {...props} value={props.value} /> : <Simple {...props} value={props.value} />

const ListTable = ({ path, items, ...props }: Props & { path: string; items: ReadonlyArray<ListItem> }) => {
  const columns = [...new Set(items.flatMap((item) => (isSimple(item) || isCatalog(item) ? [""] : Object.keys(item))))]
  return (
    <table class="list">
      <thead>
        <tr>
          <th scope="col">#</th>
          {columns.map((c) => (
            <th scope="col" key={c}>
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {items.map((item, i) => (
          <tr key={`${path}.${i}`}>
            <th scope="row">{i + 1}</th>
            {columns.map((c) => {
              const cell = isSimple(item) || isCatalog(item) ? item : item[c]
              const cellPath = isSimple(item) || isCatalog(item) ? `${path}.${i}` : `${path}.${i}.${c}`
              return (
                <td key={c}>
                  {cell === undefined ? null : (
                    <One {...props} path={cellPath} label={`${i + 1} ${c}`} value={cell} compact />
                  )}
                </td>
              )
            })}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** The fields, in the order the API gives them (the skill's `order`). */
export const Fields = ({
  fields,
  prefix = "",
  ...props
}: Props & { fields: ReadonlyArray<Field>; prefix?: string }) => (
  <ul class="fields">
    {fields.map((field) => {
      const path = `${prefix}${field.name}`
      const value = field.value
      return (
        <li key={path} class="field">
          {value === null ? (
            <span class="value missing">
              <span class="label">{field.name}</span> {props.t.empty}
            </span>
          ) : isSimple(value) || isCatalog(value) ? (
            <One {...props} path={path} label={field.name} value={value} />
          ) : value.every(isField) ? (
            <fieldset class="object">
              <legend>{field.name}</legend>
              <Fields {...props} fields={value as ReadonlyArray<Field>} prefix={`${path}.`} />
            </fieldset>
          ) : (
            <fieldset class="object">
              <legend>{field.name}</legend>
              <ListTable {...props} path={path} items={value as ReadonlyArray<ListItem>} />
            </fieldset>
          )}
        </li>
      )
    })}
  </ul>
)
