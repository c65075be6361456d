import type React from 'react'
import { useId } from 'react'
import { Form, Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { Button, ButtonGroup, buttonClass, type ButtonVariant } from './button'
import { useHoldLiveReloads } from '../live-reloads'

/**
 * The field only a confirmation's own form sends. An action that moves money or cannot be undone
 * refuses a POST without it (app/lib/confirm.server.ts), so the page's first button never acts alone.
 */
export const CONFIRMED_FIELD = 'confirmed'

export interface ConfirmProps {
  /** What will happen, in the person's words, with the amount and who receives it ("Release €1,200.00 to Ana Ruiz?"). */
  question: string
  /** The real submit's label ("Yes, release €1,200.00"). */
  yes: string
  /** The form's values, sent again with the confirmation (intent, ids, the typed amount…); a list sends the name once per value. */
  fields: Record<string, string | number | ReadonlyArray<string | number>>
  variant?: ButtonVariant
  action?: string
  /** Where "Not now" leads when the step is a page of its own (a server-rendered step). */
  back?: string
  /** Lines or fields under the question, inside its form (what cannot be undone, a reason to record). */
  children?: React.ReactNode
}

/**
 * The confirmation step: the question, then a form that sends the same values plus the confirmed
 * field. It is plain HTML, so it works with JavaScript off; a page shows it inside `Confirm` (a
 * disclosure) or on its own when its action answers a typed form with the step (decision 310).
 */
export function ConfirmStep(props: ConfirmProps) {
  // On its own, the step is an action's reply: a live update must not reload it away.
  useHoldLiveReloads()
  return <Step {...props} />
}

/** The step's markup, also inside `Confirm`'s disclosure, which is the page's own (no reply to keep). */
function Step({ question, yes, fields, variant = 'primary', action, back, children }: ConfirmProps) {
  const { t } = useTranslation('ui')
  const id = useId()
  return (
    <div className="ui-confirm" role="group" aria-labelledby={id} data-testid="confirm-step">
      <p id={id} className="ui-confirm-question">
        {question}
      </p>
      <Form method="post" action={action} className="form-stack">
        {Object.entries(fields).flatMap(([k, v]) =>
          (Array.isArray(v) ? v : [v]).map((one: string | number, n) => (
            <input key={`${k}-${n}`} type="hidden" name={k} value={one} />
          )),
        )}
        <input type="hidden" name={CONFIRMED_FIELD} value="yes" />
        {children}
        <ButtonGroup>
          <Button variant={variant}>{yes}</Button>
          {back ? (
            <Link to={back} className={buttonClass('secondary')}>
              {t('confirm.back')}
            </Link>
          ) : null}
        </ButtonGroup>
      </Form>
    </div>
  )
}

/** A button that opens its confirmation step in place (a `<details>` disclosure: no script needed). */
export function Confirm({
  label,
  variant = 'secondary',
  describedBy,
  open,
  ...step
}: ConfirmProps & { label: string; describedBy?: string; open?: boolean }) {
  return (
    <details className="ui-confirm-disclosure" open={open}>
      <summary className={buttonClass(variant)} aria-describedby={describedBy}>
        {label}
      </summary>
      <Step variant={variant} {...step} />
    </details>
  )
}
