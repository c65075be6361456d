import { beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { isValidIban, limits, maskEmail, maskIban, parseAmount, searchTokens } from './rules.ts'
import { tinyXlsx, tinyPdf, tinyPng, useProfiles } from '../../../tests/support/modules/profiles.ts'

describe('profile rules', () => {
  it('checks IBANs by their mod-97 checksum and masks them', () => {
    expect(isValidIban('DE89 3704 0044 0532 0130 00')).toBe(true)
    expect(isValidIban('GB82WEST12345698765432')).toBe(true)
    expect(isValidIban('DE89 3704 0044 0532 0130 01')).toBe(false)
    expect(isValidIban('not an iban')).toBe(false)
    expect(maskIban('DE89370400440532013000')).toBe('DE89 •••• •••• •••• •••• 3000')
    expect(maskEmail('jane.roe@example.com')).toBe('j•••@example.com')
  })
  it('parses amounts into minor units and words into folded tokens', () => {
    expect(parseAmount('45')).toBe(4500)
    expect(parseAmount('45,5')).toBe(4550)
    expect(parseAmount('45.505')).toBeNull()
    expect(parseAmount('-3')).toBeNull()
    expect(searchTokens('  Géotechnical  Revit-BIM ')).toEqual(['geotechnical', 'revit', 'bim'])
  })
})

describe.each(dialects)('profiles API on %s', (dialect) => {
  const s = useProfiles(dialect)
  let ana: { id: number; token: string }
  let bob: { id: number; token: string }
  let client: { id: number; token: string }
  let company: { id: number; token: string }
  let catalogue: {
    categoryId: number
    otherCategoryId: number
    subcategoryIds: number[]
    skillIds: number[]
    skillNames: string[]
    industryId: number
  }

  beforeAll(async () => {
    ana = await s.t.user('freelancer', 'Ana', 'Petrović')
    bob = await s.t.user('freelancer', 'Bob', 'Builder')
    client = await s.t.user('client', 'Sarah', 'Whitfield')
    company = await s.t.user('company', 'Carmen', 'Ruiz')
    const tree = (await s.t.call('GET', 'settings/all-categories')).json.data
    const engineering = tree.find((c: any) => c.subcategories.some((s: any) => s.skills.length >= 3))
    const sub = engineering.subcategories.find((s: any) => s.skills.length >= 3)
    const industries = (await s.t.call('GET', 'settings/dropdowns/industries')).json.data
    catalogue = {
      categoryId: engineering.id,
      otherCategoryId: tree.find((c: any) => c.id !== engineering.id).id,
      subcategoryIds: [sub.id],
      skillIds: sub.skills.slice(0, 3).map((s: any) => s.id),
      skillNames: sub.skills.slice(0, 3).map((s: any) => s.name),
      industryId: industries[0].id,
    }
  })

  it('lets a freelancer fill every section, and shows the public ones to anyone', async () => {
    const tk = { token: ana.token }
    const start = await s.t.call('GET', 'freelancers/profile', tk)
    expect(start.status).toBe(200)
    expect(start.json.completeness.percent).toBe(0)
    const steps: Array<[string, string, unknown]> = [
      [
        'PUT',
        'freelancers/profile/title-overview',
        {
          title: 'Structural Engineer – Concrete and Seismic Design',
          overview: 'Chartered structural engineer designing reinforced concrete to Eurocodes.',
        },
      ],
      [
        'PUT',
        'freelancers/profile/description',
        { description: 'Fourteen years of residential and industrial work.' },
      ],
      ['PUT', 'freelancers/profile/experience-level', { experienceLevel: 'expert' }],
      ['PUT', 'freelancers/profile/years-of-experience', { yearsOfExperience: 14 }],
      ['PUT', 'freelancers/profile/country', { country: 'rs', city: 'Belgrade' }],
      ['PUT', 'freelancers/profile/availability', { availability: 'part-time' }],
      ['PUT', 'freelancers/profile/hourly-rate', { amountMinor: 5500, currency: 'EUR' }],
      ['PUT', 'freelancers/profile/gender', { gender: 'female' }],
      [
        'PUT',
        'freelancers/profile/categorization',
        {
          categoryId: catalogue.categoryId,
          subcategoryIds: catalogue.subcategoryIds,
          skillIds: catalogue.skillIds,
        },
      ],
      ['POST', 'freelancers/profile/languages', { code: 'sr', level: 'native' }],
      ['POST', 'freelancers/profile/languages', { code: 'en', level: 'fluent' }],
      [
        'POST',
        'freelancers/profile/educations',
        {
          school: 'University of Belgrade',
          degree: 'MSc Civil Engineering',
          fieldOfStudy: 'Structures',
          startYear: 2004,
          endYear: 2010,
        },
      ],
      [
        'POST',
        'freelancers/profile/employment-history',
        {
          company: 'CES Mecon',
          role: 'Structural engineer',
          country: 'RS',
          startMonth: '2010-09',
          endMonth: '2018-06',
        },
      ],
      [
        'POST',
        'freelancers/profile/certifications',
        {
          name: 'Licensed Structural Engineer',
          issuer: 'Serbian Chamber of Engineers',
          issuedMonth: '2013-05',
          credentialUrl: 'https://example.org/licence/123',
        },
      ],
      [
        'POST',
        'freelancers/profile/portfolios',
        {
          title: '9-storey residential building',
          description: 'RC frame with shear walls',
          projectUrl: 'https://example.org/p/9',
        },
      ],
    ]
    for (const [method, path, body] of steps) {
      const r = await s.t.call(method, path, { ...tk, body })
      expect(r.status, `${path}: ${r.text}`).toBe(200)
    }
    const portfolioId = (await s.t.call('GET', 'freelancers/profile', tk)).json.portfolios[0].id
    expect(
      (
        await s.t.upload(
          `freelancers/profile/portfolios/${portfolioId}/image`,
          ana.token,
          'site.png',
          tinyPng(),
        )
      ).status,
    ).toBe(200)
    expect(
      (
        await s.t.upload(
          `freelancers/profile/portfolios/${portfolioId}/file`,
          ana.token,
          'calcs.pdf',
          tinyPdf(),
        )
      ).status,
    ).toBe(200)
    const image = await s.t.upload('freelancers/profile/image', ana.token, 'me.png', tinyPng())
    expect(image.status).toBe(200)
    expect(image.json.imageUrl).toMatch(/^files\/\d+\/download$/)

    const mine = (await s.t.call('GET', 'freelancers/profile', tk)).json
    expect(mine.completeness).toEqual({ percent: 100, missing: [] })
    expect(mine).toMatchObject({
      country: 'RS',
      countryName: 'Serbia',
      city: 'Belgrade',
      hourlyRate: { amountMinor: 5500, currency: 'EUR' },
      gender: 'female',
      experienceLevel: 'expert',
      yearsOfExperience: 14,
    })
    expect(mine.languages.map((l: any) => [l.code, l.level])).toEqual([
      ['en', 'fluent'],
      ['sr', 'native'],
    ])
    expect(mine.skills.map((s: any) => s.id).sort()).toEqual([...catalogue.skillIds].sort())
    expect(mine.portfolios[0].image).toMatchObject({ displayable: true, type: 'png' })
    expect(mine.portfolios[0].document).toMatchObject({ name: 'calcs.pdf', type: 'pdf' })

    // The top bar reads the image from the user row through identity: it is there at once.
    expect((await s.t.call('GET', 'identity/profile', tk)).json.imageUrl).toBe(image.json.imageUrl)
    // wengazPercentage folds the profile's completeness (100) into the account's (name, email, image: 75).
    expect((await s.t.call('GET', 'identity/profile', tk)).json.wengazPercentage).toBe(88)
    expect((await s.t.call('GET', 'freelancers/profile/image', tk)).json.imageUrl).toBe(image.json.imageUrl)
    expect((await s.t.call('GET', `freelancers/${ana.id}/profile/image`)).json.imageUrl).toBe(
      image.json.imageUrl,
    )
    const picture = await s.t.raw('GET', image.json.imageUrl)
    expect(picture.status).toBe(200)
    expect(picture.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await picture.arrayBuffer()).toString('latin1')).not.toContain('GPS')
    const doc = await s.t.raw('GET', mine.portfolios[0].document.url)
    expect(doc.status).toBe(200)

    const pub = await s.t.call('GET', `freelancers/${ana.id}/profile`)
    expect(pub.status).toBe(200)
    expect(pub.json.title).toBe('Structural Engineer – Concrete and Seismic Design')
    expect(pub.json.gender).toBeUndefined()
    expect(pub.json.completeness).toBeUndefined()
    expect(pub.json.educations).toHaveLength(1)
    expect((await s.t.call('GET', `freelancers/${client.id}/profile`)).status).toBe(404)
    expect((await s.t.call('GET', 'freelancers/999999/profile')).status).toBe(404)
  })

  it("updates and deletes list items, and keeps other users' items out of reach", async () => {
    const own = (await s.t.call('GET', 'freelancers/profile', { token: ana.token })).json
    const eduId = own.educations[0].id
    const edu = { school: 'ETH Zürich', degree: 'PhD', startYear: 2011, endYear: 2015 }
    // Another freelancer: 404 on every list item, and nothing changes.
    for (const [method, path, body] of [
      ['PUT', `freelancers/profile/educations/${eduId}`, edu],
      ['DELETE', `freelancers/profile/educations/${eduId}`, undefined],
      [
        'PUT',
        `freelancers/profile/employment-history/${own.employmentHistory[0].id}`,
        { company: 'X', role: 'Y', startMonth: '2020-01' },
      ],
      ['DELETE', `freelancers/profile/certifications/${own.certifications[0].id}`, undefined],
      ['DELETE', `freelancers/profile/portfolios/${own.portfolios[0].id}`, undefined],
      ['PUT', 'freelancers/profile/languages/sr', { level: 'basic' }],
    ] as const) {
      const r = await s.t.call(method, path, { token: bob.token, body })
      expect(r.status, `${method} ${path}`).toBe(404)
    }
    expect(
      (
        await s.t.upload(
          `freelancers/profile/portfolios/${own.portfolios[0].id}/image`,
          bob.token,
          'x.png',
          tinyPng(),
        )
      ).status,
    ).toBe(404)
    // A client may not create or change freelancer sections.
    expect(
      (await s.t.call('POST', 'freelancers/profile/educations', { token: client.token, body: edu })).status,
    ).toBe(403)
    expect(
      (await s.t.call('PUT', 'freelancers/profile/title', { token: company.token, body: { title: 'x' } }))
        .status,
    ).toBe(403)
    expect((await s.t.call('GET', 'freelancers/profile', { token: client.token })).status).toBe(403)
    expect((await s.t.call('PUT', 'freelancers/profile/title', { body: { title: 'x' } })).status).toBe(401)
    const after = (await s.t.call('GET', 'freelancers/profile', { token: ana.token })).json
    expect(after.educations).toEqual(own.educations)
    expect(after.languages).toEqual(own.languages)

    // The owner can.
    const updated = await s.t.call('PUT', `freelancers/profile/educations/${eduId}`, {
      token: ana.token,
      body: edu,
    })
    expect(updated.json.educations[0]).toMatchObject({ school: 'ETH Zürich', degree: 'PhD' })
    const level = await s.t.call('PUT', 'freelancers/profile/languages/sr', {
      token: ana.token,
      body: { level: 'fluent' },
    })
    expect(level.json.languages.find((l: any) => l.code === 'sr').level).toBe('fluent')
    const gone = await s.t.call('DELETE', `freelancers/profile/certifications/${own.certifications[0].id}`, {
      token: ana.token,
    })
    expect(gone.json.certifications).toEqual([])
    expect(
      (
        await s.t.call('DELETE', `freelancers/profile/certifications/${own.certifications[0].id}`, {
          token: ana.token,
        })
      ).status,
    ).toBe(404)
  })

  it('refuses bad input with a 400 naming the field, changing nothing, and ignores fields it may not set', async () => {
    const before = (await s.t.call('GET', 'freelancers/profile', { token: ana.token })).json
    const bad: Array<[string, string, unknown, string]> = [
      ['PUT', 'freelancers/profile/title', { title: '' }, 'title'],
      ['PUT', 'freelancers/profile/title', { title: 'x'.repeat(121) }, 'title'],
      ['PUT', 'freelancers/profile/hourly-rate', { amountMinor: 12.5, currency: 'EUR' }, 'amountMinor'],
      ['PUT', 'freelancers/profile/hourly-rate', { amountMinor: 5000, currency: 'XYZ' }, 'currency'],
      ['PUT', 'freelancers/profile/country', { country: 'QQ' }, 'country'],
      ['PUT', 'freelancers/profile/experience-level', { experienceLevel: 'guru' }, 'experienceLevel'],
      [
        'PUT',
        'freelancers/profile/categorization',
        { categoryId: catalogue.otherCategoryId, subcategoryIds: catalogue.subcategoryIds },
        'subcategoryIds',
      ],
      [
        'PUT',
        'freelancers/profile/categorization',
        { categoryId: catalogue.categoryId, skillIds: [999999] },
        'skillIds',
      ],
      ['POST', 'freelancers/profile/languages', { code: 'en', level: 'fluent' }, 'code'],
      ['POST', 'freelancers/profile/languages', { code: 'xx', level: 'fluent' }, 'code'],
      [
        'POST',
        'freelancers/profile/educations',
        { school: 'A', degree: 'B', startYear: 2015, endYear: 2010 },
        'endYear',
      ],
      [
        'POST',
        'freelancers/profile/employment-history',
        { company: 'A', role: 'B', startMonth: '2020-13' },
        'startMonth',
      ],
      [
        'POST',
        'freelancers/profile/certifications',
        { name: 'A', issuer: 'B', credentialUrl: 'javascript:alert(1)' },
        'credentialUrl',
      ],
      ['PUT', 'freelancers/profile/description', { description: 'x'.repeat(5001) }, 'description'],
    ]
    for (const [method, path, body, field] of bad) {
      const r = await s.t.call(method, path, { token: ana.token, body })
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(400)
      expect(r.json.title).toBe('Invalid Info')
      expect(Object.keys(r.json.errors), path).toContain(field)
    }
    // Extra fields (ids, ratings, roles) are dropped, not stored.
    await s.t.call('PUT', 'freelancers/profile/title', {
      token: ana.token,
      body: {
        title: before.title,
        userId: bob.id,
        rating_x100: 500,
        rating: { average: 5, count: 99 },
        roles: [1],
      },
    })
    const after = (await s.t.call('GET', 'freelancers/profile', { token: ana.token })).json
    expect(after).toEqual(before)
    expect((await s.t.call('GET', 'identity/profile', { token: ana.token })).json.roles).toEqual([4])
  })

  it('applies the docs/product.md §5 checks to profile images, word for word', async () => {
    const wrong = await s.t.upload('freelancers/profile/image', ana.token, 'cv.pdf', tinyPdf())
    expect(wrong).toMatchObject({
      status: 400,
      json: { title: 'Invalid Image', errors: { file: ['Please select a valid image'] } },
    })
    const renamed = await s.t.upload(
      'freelancers/profile/image',
      ana.token,
      'me.png',
      Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300, 1)]),
    )
    expect(renamed.json.title).toBe('Invalid Image')
    const big = await s.t.upload(
      'freelancers/profile/image',
      ana.token,
      'big.png',
      Buffer.concat([tinyPng(), Buffer.alloc(801 * 1024)]),
    )
    expect(big).toMatchObject({
      status: 400,
      json: { title: 'File Size', detail: 'Image size should not exceed 800 KB' },
    })
    // A client uploads through the individual endpoint, a company through its own; not through another kind's.
    expect((await s.t.upload('freelancers/profile/image', client.token, 'me.png', tinyPng())).status).toBe(
      403,
    )
    const c = await s.t.upload('clients/profile/image', client.token, 'me.png', tinyPng())
    expect(c.status).toBe(200)
    expect((await s.t.call('GET', 'clients/profile/image-url', { token: client.token })).json.imageUrl).toBe(
      c.json.imageUrl,
    )
    expect((await s.t.call('GET', `clients/${client.id}/profile/image-url`)).json.imageUrl).toBe(
      c.json.imageUrl,
    )
    const k = await s.t.upload('companies/profile/image', company.token, 'logo.png', tinyPng())
    expect(k.status).toBe(200)
    expect(
      (await s.t.call('GET', 'companies/profile/image-url', { token: company.token })).json.imageUrl,
    ).toBe(k.json.imageUrl)
    expect((await s.t.call('GET', `companies/${company.id}/profile/image-url`)).json.imageUrl).toBe(
      k.json.imageUrl,
    )
    expect((await s.t.upload('companies/profile/image', client.token, 'logo.png', tinyPng())).status).toBe(
      403,
    )
    expect((await s.t.call('GET', `companies/${client.id}/profile/image-url`)).status).toBe(404)
  })

  it('keeps a schedule of rates: xlsx or csv only (docs/product.md §5 word for word), replaced and removed by its owner, public with the profile', async () => {
    const before = (await s.t.call('GET', 'freelancers/profile', { token: ana.token })).json
    expect(before.rateSheet).toBeNull()
    // Refused, each with the spreadsheet message, changing nothing: another extension, a renamed executable, too large.
    for (const [name, bytes] of [
      ['rates.xls', tinyXlsx()],
      ['rates.pdf', tinyPdf()],
      ['rates.xlsx', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300, 1)])],
      ['rates.csv', Buffer.concat([Buffer.from('item;rate\n'), Buffer.from([0, 1, 2])])],
    ] as const) {
      const refused = await s.t.upload('freelancers/profile/rate-sheet', ana.token, name, bytes)
      expect(refused, name).toMatchObject({
        status: 400,
        json: { title: 'Invalid Excel', errors: { file: ['Please select a valid Excel sheet'] } },
      })
    }
    const big = await s.t.upload(
      'freelancers/profile/rate-sheet',
      ana.token,
      'rates.csv',
      Buffer.alloc(801 * 1024, 'a'),
    )
    expect(big).toMatchObject({ status: 400, json: { title: 'File Size' } })
    expect((await s.t.call('GET', 'freelancers/profile', { token: ana.token })).json.rateSheet).toBeNull()
    // Clients, companies and visitors cannot set one; another freelancer sets only their own.
    expect(
      (
        await s.t.upload(
          'freelancers/profile/rate-sheet',
          client.token,
          'rates.csv',
          Buffer.from('item;rate\n'),
        )
      ).status,
    ).toBe(403)
    expect(
      (await s.t.call('DELETE', 'freelancers/profile/rate-sheet', { token: company.token })).status,
    ).toBe(403)
    expect((await s.t.call('DELETE', 'freelancers/profile/rate-sheet')).status).toBe(401)

    const xlsx = await s.t.upload('freelancers/profile/rate-sheet', ana.token, 'Rates 2026.xlsx', tinyXlsx())
    expect(xlsx.status).toBe(200)
    expect(xlsx.json.rateSheet).toMatchObject({ name: 'Rates 2026.xlsx', type: 'xlsx' })
    const csv = await s.t.upload(
      'freelancers/profile/rate-sheet',
      ana.token,
      'tarifas.csv',
      Buffer.from('partida;unidad;precio\nlosa HA-25;m³;118,50\n'),
    )
    expect(csv.json.rateSheet).toMatchObject({ name: 'tarifas.csv', type: 'csv' })
    // The replaced sheet's row is gone; the public profile shows the new one, which anyone may download.
    expect(
      await s.database.db
        .selectFrom('stored_file')
        .select('id')
        .where('id', '=', xlsx.json.rateSheet.id)
        .executeTakeFirst(),
    ).toBeUndefined()
    const pub = (await s.t.call('GET', `freelancers/${ana.id}/profile`)).json
    expect(pub.rateSheet).toEqual(csv.json.rateSheet)
    const download = await s.t.raw('GET', csv.json.rateSheet.url)
    expect(download.status).toBe(200)
    expect(download.headers.get('content-disposition')).toMatch(/^attachment;/)
    expect(await download.text()).toContain('losa HA-25')
    expect(
      (await s.t.upload('freelancers/profile/rate-sheet', bob.token, 'mine.csv', Buffer.from('a;b\n')))
        .status,
    ).toBe(200)
    expect((await s.t.call('GET', `freelancers/${ana.id}/profile`)).json.rateSheet.name).toBe('tarifas.csv')

    const removed = await s.t.call('DELETE', 'freelancers/profile/rate-sheet', { token: ana.token })
    expect(removed.json.rateSheet).toBeNull()
    expect((await s.t.raw('GET', csv.json.rateSheet.url)).status).toBe(404)
    expect((await s.t.call('GET', `freelancers/${bob.id}/profile`)).json.rateSheet.name).toBe('mine.csv')
  })

  it('keeps individual-client and company profiles, each with its own sections and public view', async () => {
    const ck = { token: client.token }
    expect(
      (
        await s.t.call('PUT', 'clients/profile/basic-details', {
          ...ck,
          body: { country: 'GB', city: 'Bristol', industryId: catalogue.industryId },
        })
      ).status,
    ).toBe(200)
    expect(
      (
        await s.t.call('PUT', 'clients/profile/who-i-am', {
          ...ck,
          body: { text: 'Renovating a Victorian house.' },
        })
      ).status,
    ).toBe(200)
    expect(
      (
        await s.t.call('PUT', 'clients/profile/what-do-I-do', {
          ...ck,
          body: { text: 'Software developer.' },
        })
      ).status,
    ).toBe(200)
    expect(
      (
        await s.t.call('PUT', 'clients/profile/description', {
          ...ck,
          body: { description: 'Need structural calcs.' },
        })
      ).status,
    ).toBe(200)
    const cat = await s.t.call('PUT', 'clients/profile/categorization', {
      ...ck,
      body: { categoryId: catalogue.categoryId, subcategoryIds: catalogue.subcategoryIds },
    })
    expect(cat.json.completeness).toEqual({ percent: 100, missing: [] })
    expect(cat.json).toMatchObject({
      kind: 'individual',
      country: 'GB',
      city: 'Bristol',
      who: 'Renovating a Victorian house.',
      what: 'Software developer.',
    })
    const pub = await s.t.call('GET', `clients/${client.id}/profile`)
    expect(pub.json).toMatchObject({ who: 'Renovating a Victorian house.', name: 'Sarah Whitfield' })
    expect(pub.json.completeness).toBeUndefined()
    expect((await s.t.call('GET', `clients/${client.id}/profile/basic-details`)).status).toBe(200)
    expect((await s.t.call('GET', `clients/${company.id}/profile`)).status).toBe(404)

    const kk = { token: company.token }
    expect((await s.t.call('PUT', 'clients/profile/who-i-am', { ...kk, body: { text: 'x' } })).status).toBe(
      403,
    )
    expect(
      (
        await s.t.call('PUT', 'companies/profile/basic-details', {
          ...kk,
          body: {
            country: 'ES',
            city: 'Valencia',
            industryId: catalogue.industryId,
            website: 'https://aurelia.example',
            companySize: '11-50',
            foundedYear: 2009,
          },
        })
      ).status,
    ).toBe(200)
    expect(
      (
        await s.t.call('PUT', 'companies/profile/who-are-we', {
          ...kk,
          body: { text: 'A developer on the coast.' },
        })
      ).status,
    ).toBe(200)
    expect(
      (
        await s.t.call('PUT', 'companies/profile/what-do-we-do', {
          ...kk,
          body: { text: 'Residential schemes.' },
        })
      ).status,
    ).toBe(200)
    const d = await s.t.call('PUT', 'companies/profile/description', {
      ...kk,
      body: { description: 'We bring in specialists.' },
    })
    expect(d.json.completeness.percent).toBe(100)
    expect(
      (
        await s.t.call('PUT', 'companies/profile/basic-details', {
          ...kk,
          body: { country: 'ES', website: 'ftp://x' },
        })
      ).json.errors,
    ).toHaveProperty('website')
    const kp = await s.t.call('GET', `companies/${company.id}/profile/basic-details`)
    expect(kp.json).toMatchObject({
      kind: 'company',
      companyName: 'Ruiz Engineering',
      companySize: '11-50',
      foundedYear: 2009,
      website: 'https://aurelia.example',
    })
    expect((await s.t.call('GET', `companies/${client.id}/profile/basic-details`)).status).toBe(404)
    expect(
      (await s.t.call('PUT', 'companies/profile/who-are-we', { ...ck, body: { text: 'x' } })).status,
    ).toBe(403)
  })

  it("keeps payment methods: IBAN checked, one default, masked, the owner's only", async () => {
    const tk = { token: ana.token }
    const badIban = await s.t.call('POST', 'freelancers/AddFreelancerPaymentMethod', {
      ...tk,
      body: { kind: 'bank', holderName: 'Ana Petrović', iban: 'DE89 3704 0044 0532 0130 01' },
    })
    expect(badIban.status).toBe(400)
    expect(badIban.json.errors).toHaveProperty('iban')
    const badEmail = await s.t.call('POST', 'freelancers/AddFreelancerPaymentMethod', {
      ...tk,
      body: { kind: 'paypal', holderName: 'Ana', email: 'ana@nowhere' },
    })
    expect(badEmail.json.errors).toHaveProperty('email')
    const bank = await s.t.call('POST', 'freelancers/AddFreelancerPaymentMethod', {
      ...tk,
      body: {
        kind: 'bank',
        holderName: 'Ana Petrović',
        iban: 'de89 3704 0044 0532 0130 00',
        bic: 'COBADEFFXXX',
        bankName: 'Commerzbank',
      },
    })
    expect(bank.status).toBe(200)
    expect(bank.json).toMatchObject({
      kind: 'bank',
      masked: 'DE89 •••• •••• •••• •••• 3000',
      isDefault: true,
      status: 'active',
    })
    expect(JSON.stringify(bank.json)).not.toContain('370400440532013000')
    const paypal = await s.t.call('POST', 'freelancers/AddFreelancerPaymentMethod', {
      ...tk,
      body: { kind: 'paypal', holderName: 'Ana Petrović', email: 'ana.petrovic@example.com' },
    })
    expect(paypal.json).toMatchObject({ masked: 'a•••@example.com', isDefault: false })

    const list = await s.t.call('GET', `freelancers/${ana.id}/GetAllPaymentMethodsForFreelancer`, tk)
    expect(list.json.data.map((m: any) => [m.kind, m.isDefault])).toEqual([
      ['bank', true],
      ['paypal', false],
    ])
    // Strangers: the list is forbidden, single methods are not found, and nothing changes.
    expect(
      (await s.t.call('GET', `freelancers/${ana.id}/GetAllPaymentMethodsForFreelancer`, { token: bob.token }))
        .status,
    ).toBe(403)
    expect(
      (
        await s.t.call('GET', `freelancers/${ana.id}/GetAllPaymentMethodsForFreelancer`, {
          token: client.token,
        })
      ).status,
    ).toBe(403)
    expect(
      (await s.t.call('DELETE', `freelancers/DeletePaymentMethod/${bank.json.id}`, { token: bob.token }))
        .status,
    ).toBe(404)
    expect(
      (
        await s.t.call('PUT', `freelancers/UpdatePaymentMethod/${bank.json.id}`, {
          token: bob.token,
          body: { holderName: 'Mallory' },
        })
      ).status,
    ).toBe(404)
    expect(
      (
        await s.t.call('PUT', `freelancers/UpdatePaymentMethodStatus/${paypal.json.id}`, {
          token: bob.token,
          body: { isDefault: true },
        })
      ).status,
    ).toBe(404)
    expect(
      (
        await s.t.call('POST', 'freelancers/AddFreelancerPaymentMethod', {
          token: client.token,
          body: { kind: 'paypal', holderName: 'S', email: 's@example.com' },
        })
      ).status,
    ).toBe(403)

    const switched = await s.t.call('PUT', `freelancers/UpdatePaymentMethodStatus/${paypal.json.id}`, {
      ...tk,
      body: { isDefault: true },
    })
    expect(switched.json.data.filter((m: any) => m.isDefault).map((m: any) => m.id)).toEqual([paypal.json.id])
    const off = await s.t.call('PUT', `freelancers/UpdatePaymentMethodStatus/${paypal.json.id}`, {
      ...tk,
      body: { status: 'inactive' },
    })
    expect(off.json.data.find((m: any) => m.id === paypal.json.id)).toMatchObject({
      status: 'inactive',
      isDefault: false,
    })
    expect(off.json.data.find((m: any) => m.id === bank.json.id)).toMatchObject({ isDefault: true })
    const renamed = await s.t.call('PUT', `freelancers/UpdatePaymentMethod/${bank.json.id}`, {
      ...tk,
      body: { holderName: 'Ana P.', bic: 'COBADEFF' },
    })
    expect(renamed.json).toMatchObject({
      holderName: 'Ana P.',
      masked: 'DE89 •••• •••• •••• •••• 3000',
      bic: 'COBADEFF',
    })
    expect((await s.t.call('DELETE', `freelancers/DeletePaymentMethod/${bank.json.id}`, tk)).status).toBe(200)
    const left = (await s.t.call('GET', `freelancers/${ana.id}/GetAllPaymentMethodsForFreelancer`, tk)).json
      .data
    expect(left).toHaveLength(1)
    expect(left[0]).toMatchObject({ id: paypal.json.id, status: 'inactive', isDefault: false })
  })

  it('finds freelancers by words, filters, sorts and pages — for clients and companies only', async () => {
    // Bob: a second, cheaper freelancer with different skills and language.
    const b = { token: bob.token }
    await s.t.call('PUT', 'freelancers/profile/title-overview', {
      ...b,
      body: {
        title: 'BIM Modeller – Revit',
        overview: 'Architectural models and clash detection for géotechnique teams.',
      },
    })
    await s.t.call('PUT', 'freelancers/profile/hourly-rate', {
      ...b,
      body: { amountMinor: 2500, currency: 'EUR' },
    })
    await s.t.call('PUT', 'freelancers/profile/country', { ...b, body: { country: 'IN' } })
    await s.t.call('PUT', 'freelancers/profile/experience-level', {
      ...b,
      body: { experienceLevel: 'entry' },
    })
    await s.t.call('PUT', 'freelancers/profile/availability', { ...b, body: { availability: 'full-time' } })
    await s.t.call('POST', 'freelancers/profile/languages', { ...b, body: { code: 'hi', level: 'native' } })
    // A freelancer without a title is not listed.
    const carl = await s.t.user('freelancer', 'Carl', 'Hidden')
    await s.t.call('PUT', 'freelancers/profile/hourly-rate', {
      token: carl.token,
      body: { amountMinor: 1000, currency: 'EUR' },
    })

    const search = (qs: string, token = client.token) => s.t.call('GET', `freelancers/search${qs}`, { token })
    const all = await search('')
    expect(all.status).toBe(200)
    expect(all.json.total).toBe(2)
    expect((await search('?q=structural')).json.data.map((h: any) => h.userId)).toEqual([ana.id])
    expect((await search('?q=STRUCT')).json.data.map((h: any) => h.userId)).toEqual([ana.id]) // prefix, any case
    expect((await search('?q=geotechnique')).json.data.map((h: any) => h.userId)).toEqual([bob.id]) // diacritics folded
    expect(
      (await search(`?q=${encodeURIComponent(catalogue.skillNames[0].split(' ')[0])}`)).json.data.map(
        (h: any) => h.userId,
      ),
    ).toContain(ana.id) // skills are searched
    expect((await search('?q=structural%20revit')).json.total).toBe(0) // every word must match
    expect((await search('?q=%22%29%28*%20OR')).status).toBe(200) // query syntax is not passed through
    expect((await search(`?categoryId=${catalogue.categoryId}`)).json.data.map((h: any) => h.userId)).toEqual(
      [ana.id],
    )
    expect((await search(`?subcategoryId=${catalogue.subcategoryIds[0]}`)).json.total).toBe(1)
    expect(
      (await search(`?skills=${catalogue.skillIds[0]}&skills=${catalogue.skillIds[1]}`)).json.total,
    ).toBe(1)
    expect((await search('?country=in')).json.data.map((h: any) => h.userId)).toEqual([bob.id])
    expect((await search('?minRate=3000&maxRate=6000')).json.data.map((h: any) => h.userId)).toEqual([ana.id])
    expect((await search('?experienceLevel=entry')).json.data.map((h: any) => h.userId)).toEqual([bob.id])
    expect((await search('?availability=part-time')).json.data.map((h: any) => h.userId)).toEqual([ana.id])
    expect((await search('?language=hi')).json.data.map((h: any) => h.userId)).toEqual([bob.id])
    // Words with filters are one index query (facet tokens, decision 013), kept with every change.
    expect(
      (
        await search(
          '?q=bim&country=IN&language=hi&availability=full-time&experienceLevel=entry&currency=EUR',
        )
      ).json.data.map((h: any) => h.userId),
    ).toEqual([bob.id])
    expect((await search(`?q=bim&categoryId=${catalogue.categoryId}`)).json.total).toBe(0)
    await s.t.call('PUT', 'freelancers/profile/country', { ...b, body: { country: 'DE' } })
    expect((await search('?q=bim&country=IN')).json.total).toBe(0)
    expect((await search('?q=bim&country=DE')).json.data.map((h: any) => h.userId)).toEqual([bob.id])
    expect(
      (await search(`?q=struct&skills=${catalogue.skillIds[0]}&sort=rate-asc`)).json.data.map(
        (h: any) => h.userId,
      ),
    ).toEqual([ana.id])
    expect((await search('?minRating=4')).json.total).toBe(0)
    expect((await search('?sort=rate-asc')).json.data.map((h: any) => h.userId)).toEqual([bob.id, ana.id])
    expect((await search('?sort=rate-desc')).json.data.map((h: any) => h.userId)).toEqual([ana.id, bob.id])
    const paged = await search('?sort=rate-asc&pageSize=1&page=2')
    expect(paged.json).toMatchObject({ total: 2, page: 2, pageSize: 1, pages: 2 })
    expect(paged.json.data.map((h: any) => h.userId)).toEqual([ana.id])
    const hit = (await search('?q=structural')).json.data[0]
    expect(hit).toMatchObject({
      name: 'Ana Petrović',
      countryName: 'Serbia',
      hourlyRate: { amountMinor: 5500, currency: 'EUR' },
      imageDisplayable: true,
    })
    expect((await search('?minRate=5000&maxRate=100')).json.errors).toHaveProperty('maxRate')
    expect((await search('?sort=random')).status).toBe(400)
    expect((await search('', company.token)).status).toBe(200)
    expect((await search('', ana.token)).status).toBe(403)
    expect((await s.t.call('GET', 'freelancers/search')).status).toBe(401)

    const suggest = await s.t.call('GET', 'freelancers/suggestions?q=bim', { token: client.token })
    expect(suggest.json.data).toEqual([
      { userId: bob.id, name: 'Bob Builder', title: 'BIM Modeller – Revit' },
    ])
    expect((await s.t.call('GET', 'freelancers/suggestions?q=bim', { token: bob.token })).status).toBe(403)

    // Recent answers are remembered for 30 s, but a profile change shows at once.
    await s.t.call('PUT', 'freelancers/profile/title', { ...b, body: { title: 'Structural BIM Modeller' } })
    expect((await search('?q=structural')).json.data.map((h: any) => h.userId).toSorted()).toEqual(
      [ana.id, bob.id].toSorted(),
    )
  })

  it("saves an editor section's fields in one change, and a refused field changes none of them", async () => {
    const cara = await s.t.user('freelancer', 'Cara', 'Sections')
    const tk = { token: cara.token }
    const rates = await s.t.call('PUT', 'freelancers/profile/details', {
      ...tk,
      body: {
        amountMinor: 6000,
        currency: 'EUR',
        availability: 'full-time',
        experienceLevel: 'intermediate',
        yearsOfExperience: 6,
      },
    })
    expect(rates.status).toBe(200)
    expect(rates.json).toMatchObject({
      hourlyRate: { amountMinor: 6000, currency: 'EUR' },
      availability: 'full-time',
      experienceLevel: 'intermediate',
      yearsOfExperience: 6,
      country: null,
    })
    expect(rates.json.completeness.missing).not.toContain('hourlyRate')
    // The personal section leaves the rates alone; a city without its country is refused.
    const personal = await s.t.call('PUT', 'freelancers/profile/details', {
      ...tk,
      body: { country: 'RS', city: 'Novi Sad', gender: 'male' },
    })
    expect(personal.json).toMatchObject({
      country: 'RS',
      city: 'Novi Sad',
      gender: 'male',
      hourlyRate: { amountMinor: 6000 },
      availability: 'full-time',
    })
    const before = personal.json
    for (const [body, field] of [
      [{ amountMinor: 7000, currency: 'EUR', availability: 'as-needed', country: 'QQ' }, 'country'],
      [{ amountMinor: 7000, availability: 'as-needed' }, 'currency'],
      [{ city: 'Belgrade' }, 'country'],
      [{ yearsOfExperience: -1, availability: 'as-needed' }, 'yearsOfExperience'],
    ] as const) {
      const r = await s.t.call('PUT', 'freelancers/profile/details', { ...tk, body })
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(Object.keys(r.json.errors)).toContain(field)
    }
    expect((await s.t.call('GET', 'freelancers/profile', tk)).json).toEqual(before)
    expect(
      (
        await s.t.call('PUT', 'freelancers/profile/details', {
          token: client.token,
          body: { availability: 'full-time' },
        })
      ).status,
    ).toBe(403)

    const about = {
      who: 'A family renovating a farmhouse.',
      what: 'Teachers.',
      description: 'We need a structural survey.',
    }
    const mine = await s.t.call('PUT', 'clients/profile/about', { token: client.token, body: about })
    expect(mine.json).toMatchObject(about)
    expect(
      (
        await s.t.call('PUT', 'clients/profile/about', {
          token: client.token,
          body: { ...about, who: 'x'.repeat(limits.longText + 1), what: 'Changed' },
        })
      ).json.errors,
    ).toHaveProperty('who')
    expect((await s.t.call('GET', 'clients/profile', { token: client.token })).json).toMatchObject(about)
    expect(
      (await s.t.call('PUT', 'companies/profile/about', { token: company.token, body: about })).json,
    ).toMatchObject({ ...about, kind: 'company' })
    expect(
      (await s.t.call('PUT', 'clients/profile/about', { token: company.token, body: about })).status,
    ).toBe(403)
  })
})
