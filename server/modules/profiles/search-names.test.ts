import { beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { useProfiles } from '../../../tests/support/modules/profiles.ts'

// Issue 15: "Find Freelancers cannot find a freelancer by name". A client who met someone, or was
// sent their name, types it into Find Freelancers (or the top bar) and finds them: first name, last
// name or both, in any case, with or without accents, as the start of a word, with the filters, on
// both databases (FTS5 and tsvector, decision 125). A name weighs less than the title, skills and
// overview, so a word that is both a trade and a name still brings the trade first; only listed
// freelancers are searched, and a new name replaces the old one at once.
describe.each(dialects)('Find Freelancers by name on %s', (dialect) => {
  const s = useProfiles(dialect)
  let client: { id: number; token: string }
  const people: Record<string, { id: number; token: string }> = {}

  const listed = async (who: { token: string }, title: string, overview: string, country?: string) => {
    expect(
      (
        await s.t.call('PUT', 'freelancers/profile/title-overview', {
          token: who.token,
          body: { title, overview },
        })
      ).status,
    ).toBe(200)
    if (country)
      expect(
        (await s.t.call('PUT', 'freelancers/profile/country', { token: who.token, body: { country } }))
          .status,
      ).toBe(200)
  }

  beforeAll(async () => {
    client = await s.t.user('client', 'Sarah', 'Whitfield')
    people.ana = await s.t.user('freelancer', 'Ana', 'Petrović')
    people.jurgen = await s.t.user('freelancer', 'Jürgen', 'Müller-Lüdenscheidt')
    people.mason = await s.t.user('freelancer', 'Mason', 'Clarke')
    people.stone = await s.t.user('freelancer', 'Ruth', 'Okafor')
    people.hidden = await s.t.user('freelancer', 'Hector', 'Unlisted')
    people.fatima = await s.t.user('freelancer', 'Fátima', 'Fernández')
    await listed(people.ana, 'Structural Engineer – Concrete', 'Reinforced concrete to Eurocodes.', 'RS')
    await listed(people.jurgen, 'Tragwerksplaner', 'Brücken und Hallen aus Stahl.', 'DE')
    await listed(people.mason, 'BIM Modeller', 'Revit families and clash detection.', 'GB')
    await listed(people.stone, 'Mason – brick and stone', 'Masonry repairs and restoration.', 'GB')
    await listed(people.fatima, 'Ingeniera de caminos', 'Puentes y carreteras.', 'ES')
    // Hector has a profile but no title: he is not listed, so his name finds nothing.
    await s.t.call('PUT', 'freelancers/profile/hourly-rate', {
      token: people.hidden.token,
      body: { amountMinor: 4000, currency: 'EUR' },
    })
  })

  const found = async (qs: string) => {
    const r = await s.t.call('GET', `freelancers/search?${qs}`, { token: client.token })
    expect(r.status, r.text).toBe(200)
    return r.json.data.map((h: { userId: number }) => h.userId)
  }
  const q = (text: string) => `q=${encodeURIComponent(text)}`

  it('finds a freelancer by first name, last name or both, in any case, with or without accents, from the start of a word', async () => {
    for (const text of ['Ana', 'ana', 'Petrović', 'petrovic', 'PETRO', 'Ana Petrović', 'petrovic ana'])
      expect(await found(q(text)), text).toEqual([people.ana.id])
    for (const text of ['Jürgen', 'jurgen', 'Müller', 'muller', 'Lüdenscheidt', 'jurgen muller-ludenscheidt'])
      expect(await found(q(text)), text).toEqual([people.jurgen.id])
    // On SQLite a word that starts with "f" is asked of the text columns only (facet tokens start with f): the name is one of them.
    for (const text of ['Fátima', 'fati', 'fernandez', 'Fátima Fernández'])
      expect(await found(q(text)), text).toEqual([people.fatima.id])
    expect(await found(q('Ana Müller'))).toEqual([]) // every word must match, as for any search
    // Only listed freelancers are searched: never a client, a company or a profile without a title.
    const company = await s.t.user('company', 'Carmen', 'Whitfield')
    expect(company.id).toBeGreaterThan(0)
    for (const text of ['Whitfield', 'Sarah', 'Carmen', 'Hector'])
      expect(await found(q(text)), text).toEqual([])
  })

  it('applies the filters and the sorts to a name as to any word', async () => {
    expect(await found(`${q('Müller')}&country=DE`)).toEqual([people.jurgen.id])
    expect(await found(`${q('Müller')}&country=GB`)).toEqual([])
    expect(await found(`${q('Petrović')}&sort=rating`)).toEqual([people.ana.id])
  })

  it('ranks a name below the title, skills and overview, so a trade that is also a name brings the trade first', async () => {
    expect(await found(q('mason'))).toEqual([people.stone.id, people.mason.id])
    expect(await found(q('clarke'))).toEqual([people.mason.id])
  })

  it('follows a change of name at once, and suggests freelancers by name in the top bar', async () => {
    const rename = await s.t.call('PUT', 'identity/profile', {
      token: people.ana.token,
      body: { firstName: 'Ana', lastName: 'Kovačević', language: 'en' },
    })
    expect(rename.status, rename.text).toBe(200)
    expect(await found(q('Kovacevic'))).toEqual([people.ana.id])
    expect(await found(q('Petrović ana'))).toEqual([])
    expect(await found(q('structural'))).toEqual([people.ana.id]) // the rest of the document is kept
    // A change of language alone leaves the document as it was (no rewrite); the name still finds her.
    expect(
      (
        await s.t.call('PUT', 'identity/profile', {
          token: people.ana.token,
          body: { firstName: 'Ana', lastName: 'Kovačević', language: 'de' },
        })
      ).status,
    ).toBe(200)
    expect(await found(q('kovac'))).toEqual([people.ana.id])
    const suggested = await s.t.call('GET', `freelancers/suggestions?q=${encodeURIComponent('Jürg')}`, {
      token: client.token,
    })
    expect(suggested.status).toBe(200)
    expect(suggested.json.data).toEqual([
      { userId: people.jurgen.id, name: 'Jürgen Müller-Lüdenscheidt', title: 'Tragwerksplaner' },
    ])
  })
})
