import { describe, expect, test } from 'vitest'
import { Role } from '../identity/permissions.ts'
import { notificationTarget } from './targets.ts'

describe('notificationTarget', () => {
  test('a freelancer goes to the contract page, a client or company to the client details page', () => {
    expect(notificationTarget({ roomId: null, projectId: 7 }, [Role.Freelancer])).toBe(
      '/projects/freelancer/contract/7',
    )
    expect(notificationTarget({ roomId: null, projectId: 7 }, [Role.Client])).toBe(
      '/projects/client/details/7',
    )
    expect(notificationTarget({ roomId: null, projectId: 7 }, [Role.Company])).toBe(
      '/projects/client/details/7',
    )
  })
  test('a chat notification goes to its room, whoever reads it; one without a target goes home', () => {
    expect(notificationTarget({ roomId: 3, projectId: 7 }, [Role.Freelancer])).toBe('/chats/3')
    expect(notificationTarget({ roomId: null, projectId: null }, [Role.Client])).toBe('/')
  })
})
