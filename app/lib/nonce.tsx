import { createContext, useContext } from 'react'

// The per-response CSP nonce, given to React Router's inline scripts.
const NonceContext = createContext('')
export const NonceProvider = NonceContext.Provider
export const useNonce = () => useContext(NonceContext)
