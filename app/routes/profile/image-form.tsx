import { useTranslation } from '~/lib/translations'
import { UploadForm, imageTypes } from './fields'
import { CancelLink, type SectionState } from './section'

/** The upload of a new profile picture, loaded when its section opens (decision 327). */
export function ImageForm({ state }: { state: SectionState }) {
  const { t } = useTranslation('profile')
  return (
    <>
      <UploadForm
        id="image"
        action="/profile?upload=image&edit=image#image"
        kind="image"
        accept={imageTypes}
        label={t('image.label')}
        submit={t('image.submit')}
        lastResult={state.last}
      />
      <CancelLink section="image" />
    </>
  )
}
