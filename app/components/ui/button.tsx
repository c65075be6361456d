import type React from 'react'
import { Form, Link } from 'react-router'

export type ButtonVariant = 'primary' | 'secondary' | 'destructive'

export const buttonClass = (variant: ButtonVariant = 'secondary') => `ui-button ui-button-${variant}`

/** A button: primary for the one next step, secondary for the others, destructive for what cannot be undone. */
export function Button({
  variant = 'secondary',
  type = 'submit',
  ...rest
}: { variant?: ButtonVariant } & React.ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button type={type} className={buttonClass(variant)} {...rest} />
}

/** A link that looks like a button (navigation, not an action). */
export function ButtonLink({
  variant = 'secondary',
  to,
  children,
  ...rest
}: { variant?: ButtonVariant; to: string; children: React.ReactNode } & Omit<
  React.AnchorHTMLAttributes<HTMLAnchorElement>,
  'href'
>) {
  return (
    <Link to={to} className={buttonClass(variant)} {...rest}>
      {children}
    </Link>
  )
}

/**
 * A one-button form (accept, fund, delete…): a plain POST with an intent, so it works without
 * JavaScript. What moves money or cannot be undone uses `Confirm` instead (./confirm.tsx,
 * decision 310); it is kept apart so that pages without one do not download it.
 */
export function ActionForm({
  intent,
  label,
  fields = {},
  variant = 'secondary',
  action,
  describedBy,
  children,
}: {
  intent: string
  label: string
  fields?: Record<string, string | number>
  variant?: ButtonVariant
  action?: string
  describedBy?: string
  children?: React.ReactNode
}) {
  return (
    <Form method="post" action={action}>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {children}
      <Button variant={variant} aria-describedby={describedBy}>
        {label}
      </Button>
    </Form>
  )
}

/** Buttons side by side with room between them; a destructive one is pushed to the end. */
export function ButtonGroup({ children, label }: { children: React.ReactNode; label?: string }) {
  return (
    <div className="ui-button-group" role="group" aria-label={label}>
      {children}
    </div>
  )
}
