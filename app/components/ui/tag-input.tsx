import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from '~/lib/translations'

export interface TagOption {
  id: number | string
  name: string
}

/**
 * Skills and the like. Without JavaScript it is a list of checkboxes (every one submits as `name`);
 * with it, the chosen ones also show as removable tags above a filter box that narrows the list,
 * and the list is one Tab stop (a roving tabindex, as WAI-ARIA's composite widgets): the arrow keys,
 * Home and End move between the boxes and Space ticks one, so a long list of skills no longer
 * stands between a form's fields and its submit button. The checkboxes stay the form's fields
 * either way, so the server sees the same submission.
 */
export function TagInput({
  name,
  legend,
  options,
  selected = [],
  hint,
  error,
}: {
  name: string
  legend: string
  options: TagOption[]
  selected?: Array<number | string>
  hint?: string
  error?: string
}) {
  const id = useId()
  const [filter, setFilter] = useState('')
  const list = useRef<HTMLUListElement>(null)
  const { chosen, toggle, enhanced } = useChosen(selected, list)
  const needle = filter.trim().toLocaleLowerCase()
  const picked = options.filter((o) => chosen.has(String(o.id)))
  const shown = (o: TagOption) =>
    !enhanced || needle === '' || o.name.toLocaleLowerCase().includes(needle) || chosen.has(String(o.id))
  const roving = useRoving(
    options.filter(shown).map((o) => String(o.id)),
    list,
  )
  return (
    <fieldset
      className="ui-tags"
      data-testid="tag-input"
      aria-describedby={[hint ? `${id}-hint` : '', error ? `${id}-error` : ''].join(' ').trim() || undefined}
    >
      <legend>{legend}</legend>
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      {enhanced ? (
        <ChosenAndFilter
          filterId={`${id}-filter`}
          picked={picked}
          filter={filter}
          onFilter={setFilter}
          onRemove={(value) => toggle(value, false)}
          keysId={`${id}-keys`}
        />
      ) : null}
      {/* Without JavaScript no handler runs: every box keeps its own Tab stop. */}
      <ul className="ui-tags-options" id={`${id}-options`} ref={list} onKeyDown={roving.onKeyDown}>
        {options.map((o) => {
          const value = String(o.id)
          return (
            <li key={o.id} hidden={!shown(o)}>
              <label>
                <input
                  type="checkbox"
                  name={name}
                  value={value}
                  checked={chosen.has(value)}
                  onChange={(e) => toggle(value, e.target.checked)}
                  tabIndex={enhanced ? (roving.current === value ? 0 : -1) : undefined}
                  aria-describedby={enhanced ? `${id}-keys` : undefined}
                  onFocus={() => roving.setCurrent(value)}
                />{' '}
                {o.name}
              </label>
            </li>
          )
        })}
      </ul>
    </fieldset>
  )
}

/**
 * The ticked options, and whether the JavaScript runs. A box ticked before hydration stays ticked
 * in the page while `chosen` starts from the saved ones: once mounted, the page's boxes are the
 * truth (decision 276).
 */
function useChosen(selected: Array<number | string>, list: React.RefObject<HTMLUListElement | null>) {
  const [chosen, setChosen] = useState(() => new Set(selected.map(String)))
  const [enhanced, setEnhanced] = useState(false)
  useEffect(() => {
    const boxes = list.current?.querySelectorAll<HTMLInputElement>('input[type="checkbox"]') ?? []
    setChosen(new Set([...boxes].filter((box) => box.checked).map((box) => box.value)))
    setEnhanced(true)
  }, [list])
  const toggle = (value: string, on: boolean) =>
    setChosen((prev) => {
      const next = new Set(prev)
      if (on) next.add(value)
      else next.delete(value)
      return next
    })
  return { chosen, toggle, enhanced }
}

const moves: Record<string, (at: number, last: number) => number> = {
  ArrowDown: (at, last) => Math.min(at + 1, last),
  ArrowRight: (at, last) => Math.min(at + 1, last),
  ArrowUp: (at) => Math.max(at - 1, 0),
  ArrowLeft: (at) => Math.max(at - 1, 0),
  Home: () => 0,
  End: (_, last) => last,
}

/**
 * The one box of the list that Tab reaches (the last one focused, or the first shown) and the keys
 * that move the focus among the shown boxes. Space is the checkbox's own key.
 */
function useRoving(values: string[], list: React.RefObject<HTMLUListElement | null>) {
  const [focused, setCurrent] = useState<string | null>(null)
  const current = focused !== null && values.includes(focused) ? focused : (values[0] ?? null)
  const onKeyDown = (event: React.KeyboardEvent<HTMLUListElement>) => {
    const move = Object.hasOwn(moves, event.key) ? moves[event.key] : null
    if (!move || !values.length) return
    event.preventDefault()
    const next = values[move(Math.max(values.indexOf(current ?? ''), 0), values.length - 1)]
    setCurrent(next)
    list.current?.querySelector<HTMLInputElement>(`input[value="${CSS.escape(next)}"]`)?.focus()
  }
  return { current, setCurrent, onKeyDown }
}

/** With JavaScript: the chosen options as removable tags, and a box that narrows the list. */
function ChosenAndFilter({
  filterId,
  picked,
  filter,
  onFilter,
  onRemove,
  keysId,
}: {
  keysId: string
  filterId: string
  picked: TagOption[]
  filter: string
  onFilter: (filter: string) => void
  onRemove: (value: string) => void
}) {
  const { t } = useTranslation('ui')
  return (
    <>
      <ul className="ui-tags-chosen" aria-label={t('tags.chosen')} aria-live="polite">
        {picked.map((o) => (
          <li key={o.id} className="ui-tag">
            {o.name}
            <button
              type="button"
              aria-label={t('tags.remove', { name: o.name })}
              onClick={() => onRemove(String(o.id))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <label className="visually-hidden" htmlFor={filterId}>
        {t('tags.filter')}
      </label>
      <input
        id={filterId}
        type="search"
        className="ui-tags-filter"
        placeholder={t('tags.filter')}
        value={filter}
        onChange={(e) => onFilter(e.target.value)}
      />
      <p className="visually-hidden" id={keysId}>
        {t('tags.keys')}
      </p>
    </>
  )
}
