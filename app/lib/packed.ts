// A page's data goes to the browser inside the document, encoded by React Router's turbo-stream
// value by value: a Map lookup, a plugin check and a JSON.stringify for each of a list's few hundred
// values, on every request (decision 299). A list or a record the page only shows travels instead as
// one JSON text: turbo-stream writes one string, and the browser parses it once with JSON.parse.
declare const packedValue: unique symbol
/** A value sent as its JSON text; `unpack` gives the value back, on the server and in the browser. */
export type Packed<T> = string & { readonly [packedValue]: T }

/**
 * Values that can never change: deep-frozen by `shared`. Only their JSON may be remembered (here,
 * and for kept parts' keys): a value that could change could not be known by its identity.
 */
const unchanging = new WeakSet<object>()
const jsonOfShared = new WeakMap<object, string>()

/**
 * Freezes `value` through and through, for a value shared by requests (kept for a session or for
 * everyone, session-data.server.ts): a page that tried to change it would throw instead of showing
 * its change to others, and its JSON can be made once (`jsonOf`).
 */
export function shared<T>(value: T): T {
  if (typeof value !== 'object' || value === null || unchanging.has(value)) return value
  for (const inner of Object.values(value)) shared(inner)
  Object.freeze(value)
  unchanging.add(value)
  return value
}

/**
 * A view made of a shared value (the menus' part of the kept catalogue, the messages menu of a kept
 * answer): made once per source and shared like it, so its JSON is made once too. A source read
 * afresh (not kept) gets a view of its own.
 */
export function sharedView<S extends object, V>(make: (source: S) => V): (source: S) => V {
  const made = new WeakMap<S, V>()
  return (source) => {
    let view = made.get(source)
    if (view === undefined) made.set(source, (view = shared(make(source))))
    return view
  }
}

/** `value` as JSON: made once for a shared value, every time for any other. */
export function jsonOf(value: unknown): string {
  const isShared = typeof value === 'object' && value !== null && unchanging.has(value)
  let text = isShared ? jsonOfShared.get(value) : undefined
  if (text === undefined) {
    text = JSON.stringify(value) ?? 'null'
    if (isShared) jsonOfShared.set(value, text)
  }
  return text
}

/**
 * The value of a text, so that the server's render uses the loader's own value and the browser
 * parses a text once however often the page renders. Bounded: what is dropped is parsed again.
 */
const valueOf = new Map<string, unknown>()
const MAX_VALUES = 256

function remember(text: string, value: unknown) {
  if (valueOf.size >= MAX_VALUES && !valueOf.has(text)) valueOf.delete(valueOf.keys().next().value!)
  valueOf.set(text, value)
}

/** `value` as JSON text for the page's data. The page renders from `value` itself on the server: do not change it afterwards. */
export function packed<T>(value: T): Packed<T> {
  const text = jsonOf(value)
  remember(text, value)
  return text as Packed<T>
}

/** The value a loader packed: its own value on the server, parsed once in the browser. */
export function unpack<T>(text: Packed<T>): T {
  if (valueOf.has(text)) return valueOf.get(text) as T
  const value = JSON.parse(text) as T
  remember(text, value)
  return value
}
