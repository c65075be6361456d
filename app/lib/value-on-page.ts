/**
 * What a field holds in the page when React takes it over (hydration): the choice or the text the
 * user gave it before the JavaScript arrived, or null (on the server, or for a field React renders
 * anew). A controlled field starts from its state, so without this React would put back the
 * server's value and drop what the user did on a slow connection.
 *
 * Only while the page is being hydrated: a field made anew later (the top bar's search box on each
 * navigation) must not take what the field it replaces held, which is still in the page, under the
 * same fixed id, while the new one renders.
 */
let hydrated = false

/** Called once the page is hydrated (root.tsx): from then on every field starts from its own state. */
export const pageHydrated = () => {
  hydrated = true
}

const notOnPage = () => typeof document === 'undefined' || hydrated

export function valueOnPage(id: string): string | null {
  if (notOnPage()) return null
  const field = document.getElementById(id)
  return field instanceof HTMLInputElement ||
    field instanceof HTMLSelectElement ||
    field instanceof HTMLTextAreaElement
    ? field.value
    : null
}

/** The values of the checkboxes named `name` inside element `id` that are ticked in the page when React takes it over, or null. */
export function checkedOnPage(id: string, name: string): string[] | null {
  if (notOnPage()) return null
  const within = document.getElementById(id)
  if (!within) return null
  return [...within.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')]
    .filter((box) => box.name === name && box.checked)
    .map((box) => box.value)
}
