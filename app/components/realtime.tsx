import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react'
import { useLocation, useRevalidator } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { HubName, RealtimeClient, RealtimeState } from '~/lib/realtime.client'
import { LiveReloadHold } from './live-reloads'
import { createReloadGate } from './live-reload-gate'

// Live updates for signed-in users. The SignalR client (app/lib/realtime.client.ts) is loaded with a
// dynamic import once the page is idle after hydration, only when someone is signed in, so public pages and pages without
// JavaScript never load it; everything here renders nothing until it is there.
//
//   <RealtimeProvider userId={user?.id}>   once, around the app (root.tsx)
//   <RealtimeIndicator />                  the connection state, for the top bar
//   useRealtimeState('chat')               'disconnected' | 'connecting' | 'connected' | null (not loaded)
//   useHubGroup('chat', `room:${id}`)      join a group while the component is mounted, again after reconnects
//   useHubEvent('chat', 'newMessage', fn)  handle a server message
//   useHubSend('chat')('Typing', roomId)   call a hub method, fire and forget
//   useHubReconnected('chat', fn)          after a reconnect: fetch what was missed
//   useProjectChanges(projectId)           a page on a project: reload its loaders when the project changes

/**
 * Runs `work` once the browser is idle after hydration (at most two seconds later), so the SignalR
 * client (15 KB gzip) is parsed and its connections opened after the page has answered its first
 * taps, not during them (issue 38: total blocking time). Returns the cancel.
 */
function whenIdle(work: () => void) {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(work, { timeout: 2000 })
    return () => cancelIdleCallback(id)
  }
  const id = setTimeout(work, 200)
  return () => clearTimeout(id)
}

/**
 * Where the client is once it has loaded. The context holds this slot, which never changes, so the
 * client's arrival re-renders only what shows its state (the indicator), not every component that
 * listens to a hub (the bell, the chat): those subscribe through the slot in their effects.
 */
class ClientSlot {
  client: RealtimeClient | null = null
  private readonly listeners = new Set<() => void>()
  set(client: RealtimeClient | null) {
    this.client = client
    for (const listener of [...this.listeners]) listener()
  }
  /** Calls `use` with the client now if it is there, else once it has loaded; returns the cleanup. */
  withClient(use: (client: RealtimeClient) => (() => void) | void) {
    let cleanup: (() => void) | void
    const update = () => {
      cleanup?.()
      cleanup = this.client ? use(this.client) : undefined
    }
    update()
    this.listeners.add(update)
    return () => {
      this.listeners.delete(update)
      cleanup?.()
    }
  }
}

const RealtimeContext = createContext<ClientSlot>(new ClientSlot())
/** Reloads the loaders soon, once for a burst of messages (a transition sends several at once). */
const RevalidateContext = createContext<() => void>(() => {})

/** Unread counts live in loaders; a countNotify or countChat from the server reloads them (coalesced). */
const REVALIDATE_EVENTS: [HubName, string][] = [
  ['notifications', 'countNotify'],
  ['chat', 'countChat'],
]

export function RealtimeProvider({
  userId,
  children,
}: {
  userId: number | null | undefined
  children: ReactNode
}) {
  const [slot] = useState(() => new ClientSlot())
  useEffect(() => {
    if (!userId) return
    let cancelled = false
    let started: RealtimeClient | null = null
    // The client's module is evaluated in one idle moment and the client made in a later one: in
    // one task, with the indicator's render, they took 10-16 ms of a phone's start (decision 361).
    let cancelWait = whenIdle(() =>
      import('~/lib/realtime.client').then(
        ({ createRealtimeClient }) => {
          if (cancelled) return
          cancelWait = whenIdle(() => {
            started = createRealtimeClient()
            slot.set(started)
            started.start()
          })
        },
        () => undefined, // the chunk failed to load (offline, a new deployment): the page works without live updates
      ),
    )
    return () => {
      cancelled = true
      cancelWait()
      void started?.stop()
      slot.set(null)
    }
  }, [userId, slot])

  const revalidator = useRevalidator()
  const revalidate = useRef(revalidator.revalidate)
  revalidate.current = revalidator.revalidate
  const [gate] = useState(() => createReloadGate(() => void revalidate.current()))
  const { schedule, hold } = gate
  useEffect(
    () =>
      slot.withClient((client) => {
        const offs = REVALIDATE_EVENTS.map(([hub, target]) => client.hub(hub).on(target, schedule))
        return () => {
          offs.forEach((off) => off())
          gate.cancel()
        }
      }),
    [slot, gate, schedule],
  )

  return (
    <RealtimeContext.Provider value={slot}>
      <RevalidateContext.Provider value={schedule}>
        <LiveReloadHold.Provider value={hold}>{children}</LiveReloadHold.Provider>
      </RevalidateContext.Provider>
    </RealtimeContext.Provider>
  )
}

/** One hub's state, or, without a hub, the overall one (connected only when every hub is). Null before the client has loaded. */
export function useRealtimeState(hub?: HubName): RealtimeState | null {
  const slot = useContext(RealtimeContext)
  const subscribe = useCallback(
    (onChange: () => void) =>
      slot.withClient((client) => {
        // The client has just arrived (or was there): its state is news to this component.
        onChange()
        const offs = (hub ? [hub] : (['chat', 'notifications'] as const)).map((h) =>
          client.hub(h).subscribe(onChange),
        )
        return () => {
          offs.forEach((off) => off())
          if (!slot.client) onChange() // the client has gone (signed out): null again
        }
      }),
    [slot, hub],
  )
  const snapshot = (): RealtimeState | null => {
    const client = slot.client
    if (!client) return null
    if (hub) return client.hub(hub).state
    const states = [client.hub('chat').state, client.hub('notifications').state]
    if (states.every((s) => s === 'connected')) return 'connected'
    return states.includes('connecting') ? 'connecting' : 'disconnected'
  }
  return useSyncExternalStore(subscribe, snapshot, () => null)
}

/** Joins `group` on `hub` while mounted (and after every reconnect). Pass null to join nothing. */
export function useHubGroup(hub: HubName, group: string | null | undefined) {
  const slot = useContext(RealtimeContext)
  useEffect(() => {
    if (!group) return
    return slot.withClient((client) => client.hub(hub).join(group))
  }, [slot, hub, group])
}

/** A function that sends a hub method call (fire and forget); it does nothing until the client has loaded and connected. */
export function useHubSend(hub: HubName) {
  const slot = useContext(RealtimeContext)
  return useCallback(
    (method: string, ...args: unknown[]) => slot.client?.hub(hub).send(method, ...args),
    [slot, hub],
  )
}

/** Calls `onReconnect` each time `hub` is connected again after having been connected (not on the first connection). */
export function useHubReconnected(hub: HubName, onReconnect: () => void) {
  const state = useRealtimeState(hub)
  const seen = useRef<RealtimeState | null>(null)
  const latest = useRef(onReconnect)
  latest.current = onReconnect
  useEffect(() => {
    const before = seen.current
    seen.current = state === 'connected' ? 'connected' : before && state ? 'disconnected' : before
    if (state === 'connected' && before === 'disconnected') latest.current()
  }, [state])
}

/** Calls the latest `handler` for each `target` message on `hub`. */
export function useHubEvent(hub: HubName, target: string, handler: (...args: unknown[]) => void) {
  const slot = useContext(RealtimeContext)
  const latest = useRef(handler)
  latest.current = handler
  useEffect(
    () => slot.withClient((client) => client.hub(hub).on(target, (...args) => latest.current(...args))),
    [slot, hub, target],
  )
}

/**
 * A page showing a project (the client's details, a freelancer's details, the contract page) joins
 * its `project:{id}` group and reloads its loaders when `projectChanged` names it, so what the other
 * side did appears without a reload. The server lets only the project's parties in
 * (server/modules/notifications/groups.ts); the loaders re-read through the API as on a page load.
 */
export function useProjectChanges(projectId: number | null | undefined) {
  const slot = useContext(RealtimeContext)
  const schedule = useContext(RevalidateContext)
  // Being a party can begin on this very page (a freelancer's first proposal, refused before it);
  // that is a navigation, so ask again after each one.
  const { key } = useLocation()
  useEffect(() => {
    if (!projectId) return
    return slot.withClient((client) => client.hub('notifications').join(`project:${projectId}`))
  }, [slot, projectId, key])
  useHubEvent('notifications', 'projectChanged', (id) => {
    if (projectId && Number(id) === projectId) schedule()
  })
}

const COLORS: Record<RealtimeState, string> = {
  connected: '#1a7f37',
  connecting: '#b58100',
  disconnected: '#8c959f',
}

/** A small dot with a text alternative: are live updates on? Nothing for visitors or without JavaScript. */
export function RealtimeIndicator({ hub }: { hub?: HubName }) {
  const { t } = useTranslation('realtime')
  const state = useRealtimeState(hub)
  if (!state) return null
  const label = t(`state.${state}`)
  return (
    <span
      className="realtime-indicator"
      data-testid="realtime-indicator"
      data-state={state}
      title={label}
      role="status"
      style={{ display: 'inline-flex', alignItems: 'center', padding: '0 0.25rem' }}
    >
      <span
        aria-hidden="true"
        style={{
          width: 8,
          height: 8,
          borderRadius: '50%',
          background: COLORS[state],
          display: 'inline-block',
        }}
      />
      <span className="visually-hidden">{label}</span>
    </span>
  )
}
