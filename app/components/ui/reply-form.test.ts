import { describe, expect, it } from 'vitest'
import { asTexts, controlProps, formErrors, inputProps, replyFields, replyForm } from './reply-form'

// The reply-rendered forms (decision 316) show what conform's useForm showed: the defaults before a
// reply, what the reply kept after one (a hidden password empty), and each field's first error.
describe('replyForm', () => {
  const defaults = { firstName: 'Ada', password: 'stored' }

  it('gives the defaults and no error before a reply', () => {
    const field = replyForm(undefined, 'profile', defaults)('firstName')
    expect(field).toEqual({
      id: 'profile-firstName',
      name: 'firstName',
      errorId: 'profile-firstName-error',
      error: undefined,
      defaultValue: 'Ada',
    })
    expect(inputProps(field)['aria-invalid']).toBeUndefined()
  })

  it("takes the reply's values and first errors, and empties the fields it hid", () => {
    const reply = {
      initialValue: { firstName: 'Grace' },
      error: { firstName: ['auth:errors.required', 'second'], '': ['errors.failed'] },
    }
    const field = replyForm(reply, 'profile', defaults)
    expect(field('firstName').defaultValue).toBe('Grace')
    expect(field('firstName').error).toBe('auth:errors.required')
    expect(field('password').defaultValue).toBeUndefined()
    expect(inputProps(field('firstName'))).toMatchObject({
      'aria-invalid': true,
      'aria-describedby': 'profile-firstName-error',
    })
    expect(formErrors(reply)).toEqual(['errors.failed'])
  })
})

// The project and proposal forms (decision 317) read nested rows and lists, and carry the schema's limits.
describe('replyFields', () => {
  const constraint = {
    title: { required: true, maxLength: 120 },
    'installments[].title': { maxLength: 80 },
  }
  const defaults = { title: 'Bridge survey', skillIds: [3, 5], installments: [{ title: 'Drawings' }] }

  it('gives nested and listed defaults before a reply, with the limits of every row', () => {
    const fields = replyFields(undefined, 'project', defaults, constraint)
    expect(fields['installments[0].title']!.defaultValue).toBe('Drawings')
    expect(fields['installments[1].title']!.defaultValue).toBeUndefined()
    expect(asTexts(fields.skillIds!.value)).toEqual(['3', '5'])
    expect(controlProps(fields.title!)).toMatchObject({
      id: 'project-title',
      name: 'title',
      defaultValue: 'Bridge survey',
      required: true,
      maxLength: 120,
    })
    expect(controlProps(fields['installments[2].title']!).maxLength).toBe(80)
  })

  it("takes the reply's nested values and every error of a field", () => {
    const reply = {
      initialValue: { title: '', installments: [{ title: 'Typed' }] },
      error: { title: ['errors.required'], 'installments[0].title': ['errors.tooLong', 'second'] },
    }
    const fields = replyFields(reply, 'project', defaults, constraint)
    expect(fields.title!.defaultValue).toBe('')
    expect(fields['installments[0].title']!.defaultValue).toBe('Typed')
    expect(fields['installments[0].title']!.errors).toEqual(['errors.tooLong', 'second'])
    expect(asTexts(fields.skillIds!.value)).toEqual([])
    expect(controlProps(fields.title!)).toMatchObject({
      'aria-invalid': true,
      'aria-describedby': 'project-title-error',
    })
  })
})
