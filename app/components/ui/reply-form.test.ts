import { describe, expect, it } from 'vitest'
import { formErrors, inputProps, replyForm } from './reply-form'

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
