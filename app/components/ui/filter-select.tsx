/** A search filter's labelled select: an optional "any" choice first, then options already named by the loader or the page. */
export function FilterSelect({
  name,
  label,
  value,
  any,
  options,
  id = `f-${name}`,
}: {
  name: string
  label: string
  value: string | undefined
  any?: string
  options: Array<{ value: string | number; label: string }>
  id?: string
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value}>
        {any !== undefined ? <option value="">{any}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  )
}
