import type { SubmissionResult } from '@conform-to/react'
import { useReplyForm } from '~/components/ui/reply-form'
import { useTranslation } from '~/lib/translations'
import { Field, Notice, ReplyPostForm } from '~/components/auth/form'
import { Button } from '~/components/ui/button'
import type { InvoiceDetailsAnswer } from '#server/modules/payments/invoice-details-contract.ts'

// Account settings' "Invoice details" (issue 39 item 5, decision 311): the name, billing address
// and VAT or tax id a person's invoices carry, and a freelancer's VAT rate. Entered once here, as
// marketplaces keep tax information in settings; invoices already issued keep their own copy. The action
// parses the form with the contract's schema and replies with the errors (no zod in the browser).
export function InvoiceDetailsSection({
  answer,
  freelancer,
  saved,
  lastResult,
}: {
  answer: InvoiceDetailsAnswer
  freelancer: boolean
  saved: boolean
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const { t } = useTranslation('invoices')
  const d = answer.details
  const form = useReplyForm(lastResult, 'invoice-details-form', {
    legalName: d?.legalName ?? '',
    addressLine1: d?.addressLine1 ?? '',
    addressLine2: d?.addressLine2 ?? '',
    postcode: d?.postcode ?? '',
    city: d?.city ?? '',
    country: d?.country ?? '',
    vatId: d?.vatId ?? '',
    vatRatePercent: d?.vatRatePercent == null ? '' : String(d.vatRatePercent),
  })
  return (
    <section id="invoice-details" aria-labelledby="invoice-details-heading">
      <h2 id="invoice-details-heading">{t('details.title')}</h2>
      {saved ? <Notice kind="success">{t('details.saved')}</Notice> : null}
      <p>{t('details.lead')}</p>
      <ReplyPostForm form={form} id="invoice-details-form" intent="invoiceDetails">
        <Field
          field={form.field('legalName')}
          label={t('details.legalName')}
          hint={t('details.legalNameHint', { name: answer.defaultName })}
          autoComplete="organization"
        />
        <Field
          field={form.field('addressLine1')}
          label={t('details.addressLine1')}
          autoComplete="address-line1"
        />
        <Field
          field={form.field('addressLine2')}
          label={t('details.addressLine2')}
          autoComplete="address-line2"
        />
        <Field field={form.field('postcode')} label={t('details.postcode')} autoComplete="postal-code" />
        <Field field={form.field('city')} label={t('details.city')} autoComplete="address-level2" />
        <Field field={form.field('country')} label={t('details.country')} autoComplete="country-name" />
        <Field field={form.field('vatId')} label={t('details.vatId')} hint={t('details.vatIdHint')} />
        {freelancer ? (
          <Field
            field={form.field('vatRatePercent')}
            label={t('details.vatRate')}
            hint={t('details.vatRateHint')}
          />
        ) : null}
        <Button variant="primary">{t('details.save')}</Button>
      </ReplyPostForm>
    </section>
  )
}
