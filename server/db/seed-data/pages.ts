import type { Localized } from './types.ts'

const paras = (...paragraphs: string[]): string => paragraphs.join('\n\n')

/** Numbered sections: "1. Title\nText", separated by a blank line. */
const sections = (...items: Array<[title: string, text: string]>): string =>
  items.map(([title, text], i) => `${i + 1}. ${title}\n${text}`).join('\n\n')

export const pageTitles: Record<'aboutUs' | 'whyWorkneer' | 'terms', Localized> = {
  aboutUs: { en: 'About us', es: 'Quiénes somos', de: 'Über uns', it: 'Chi siamo', ru: 'О нас' },
  whyWorkneer: {
    en: 'Why Workneer',
    es: 'Por qué Workneer',
    de: 'Warum Workneer',
    it: 'Perché Workneer',
    ru: 'Почему Workneer',
  },
  terms: {
    en: 'Terms and conditions',
    es: 'Términos y condiciones',
    de: 'Allgemeine Geschäftsbedingungen',
    it: 'Termini e condizioni',
    ru: 'Условия использования',
  },
}

/** Plain-text page body; paragraphs separated by a blank line. */
export const aboutUs: Localized = {
  en: paras(
    'Workneer is a marketplace built for one kind of work: planning, designing, engineering and managing the built environment. Clients – homeowners, developers, contractors and public bodies – post projects; independent architects, engineers, quantity surveyors and construction managers send proposals and deliver the work.',
    'We started Workneer because general freelance platforms treat a set of structural calculations like a logo design. Engineering work has codes, stages, deliverables that can be checked and responsibilities that matter. Our catalogue, our contracts with installments and our payments held until approval are built around how projects in this industry actually run.',
    'We work in English, Spanish, German, Italian and Russian, and connect clients and freelancers across borders. Our aim is simple: help good engineers find good projects, and help clients get sound, well-documented work – paid fairly and on time.',
  ),
  es: paras(
    'Workneer es un marketplace creado para un tipo de trabajo concreto: planificar, diseñar, calcular y gestionar el entorno construido. Los clientes —particulares, promotores, constructoras y administraciones públicas— publican proyectos; arquitectos, ingenieros, técnicos de mediciones y jefes de obra independientes envían propuestas y realizan el trabajo.',
    'Creamos Workneer porque las plataformas freelance generalistas tratan una memoria de cálculo igual que el diseño de un logotipo. La ingeniería tiene normativa, fases, entregables verificables y responsabilidades que importan. Nuestro catálogo, los contratos con pagos parciales y la retención de los pagos hasta la aprobación están pensados según cómo funcionan de verdad los proyectos de este sector.',
    'Trabajamos en inglés, español, alemán, italiano y ruso, y conectamos a clientes y profesionales de distintos países. Nuestro objetivo es sencillo: ayudar a los buenos ingenieros a encontrar buenos proyectos y a los clientes a obtener un trabajo sólido y bien documentado, pagado de forma justa y puntual.',
  ),
  de: paras(
    'Workneer ist ein Marktplatz für genau eine Art von Arbeit: das Planen, Entwerfen, Berechnen und Steuern der gebauten Umwelt. Auftraggeber – private Bauherren, Projektentwickler, Bauunternehmen und öffentliche Stellen – stellen Projekte ein; freie Architekten, Ingenieure, Kostenplaner und Bauleiter senden Angebote und erbringen die Leistungen.',
    'Wir haben Workneer gegründet, weil allgemeine Freelancer-Plattformen eine statische Berechnung behandeln wie den Entwurf eines Logos. Ingenieurarbeit folgt Normen und Leistungsphasen, liefert prüfbare Ergebnisse und bringt Verantwortung mit sich. Unser Katalog, unsere Verträge mit Raten und die Verwahrung der Zahlungen bis zur Freigabe sind darauf ausgelegt, wie Projekte in dieser Branche tatsächlich ablaufen.',
    'Wir arbeiten auf Englisch, Spanisch, Deutsch, Italienisch und Russisch und bringen Auftraggeber und Freelancer über Ländergrenzen hinweg zusammen. Unser Ziel ist einfach: guten Ingenieuren zu guten Projekten verhelfen – und Auftraggebern zu solider, sauber dokumentierter Arbeit, die fair und pünktlich bezahlt wird.',
  ),
  it: paras(
    "Workneer è un marketplace pensato per un tipo di lavoro preciso: pianificare, progettare, calcolare e gestire l'ambiente costruito. I clienti — privati, promotori immobiliari, imprese di costruzione ed enti pubblici — pubblicano progetti; architetti, ingegneri, computisti e direttori dei lavori indipendenti inviano proposte e svolgono l'incarico.",
    "Abbiamo creato Workneer perché le piattaforme freelance generaliste trattano una relazione di calcolo come il disegno di un logo. L'ingegneria ha norme, fasi, elaborati verificabili e responsabilità che contano. Il nostro catalogo, i contratti a rate e i pagamenti trattenuti fino all'approvazione sono costruiti attorno al modo in cui i progetti di questo settore funzionano davvero.",
    'Lavoriamo in inglese, spagnolo, tedesco, italiano e russo e mettiamo in contatto clienti e professionisti di Paesi diversi. Il nostro obiettivo è semplice: aiutare i buoni ingegneri a trovare buoni progetti e aiutare i clienti a ottenere un lavoro solido e ben documentato, pagato in modo equo e puntuale.',
  ),
  ru: paras(
    'Workneer — это площадка для одного вида работы: планирования, проектирования, расчётов и управления строительством. Заказчики — частные лица, девелоперы, подрядчики и государственные организации — размещают проекты, а независимые архитекторы, инженеры, сметчики и специалисты по управлению строительством присылают предложения и выполняют работу.',
    'Мы создали Workneer, потому что универсальные фриланс-биржи относятся к расчёту конструкций так же, как к дизайну логотипа. В инженерной работе есть нормы, стадии, проверяемые результаты и ответственность, которая имеет значение. Наш каталог, контракты с поэтапной оплатой и удержание средств до приёмки работы построены вокруг того, как на самом деле идут проекты в этой отрасли.',
    'Мы работаем на английском, испанском, немецком, итальянском и русском языках и связываем заказчиков и исполнителей из разных стран. Наша цель проста: помогать хорошим инженерам находить хорошие проекты, а заказчикам — получать надёжную, хорошо задокументированную работу, оплаченную честно и вовремя.',
  ),
}

/** Plain-text page body; paragraphs separated by a blank line. */
export const whyWorkneer: Localized = {
  en: paras(
    'A catalogue that speaks your language. Projects and profiles are organised by the six areas of the built environment – planning and strategy, architecture and design, engineering, environmental and utilities, construction economics, and project and construction management – with the software and methods engineers actually use. You find a stormwater designer who knows EPA SWMM, not just “an engineer”.',
    'Payments that follow the work. Contracts are split into installments tied to deliverables. The client pays each installment before work on it begins, and Workneer holds the money until the client approves the deliverable. Freelancers know the money is there; clients know they pay for approved work. Any fee is shown before you pay.',
    'One record of the project. Proposals, contracts, chat, files and changes stay together, so decisions are documented and anyone can see what was agreed. If something goes wrong, a support team that understands engineering work reviews the complaint against that record.',
    'Built for teams across borders. Workneer runs in five languages, shows prices in the contract currency and lets you combine remote design work with local professionals for permits and site work. Good engineers are everywhere; Workneer helps you work with them.',
  ),
  es: paras(
    'Un catálogo que habla tu idioma. Los proyectos y perfiles se organizan según las seis áreas del entorno construido —planificación y estrategia, arquitectura y diseño, ingeniería, medio ambiente y redes, economía de la construcción, y gestión de proyectos y dirección de obra— con el software y los métodos que de verdad usan los ingenieros. Encuentras a un especialista en drenaje que domina EPA SWMM, no a «un ingeniero» cualquiera.',
    'Pagos que siguen al trabajo. Los contratos se dividen en pagos parciales ligados a entregables. El cliente abona cada pago antes de que empiece el trabajo correspondiente, y Workneer retiene el dinero hasta que el cliente aprueba el entregable. El profesional sabe que el dinero está ahí; el cliente sabe que paga por trabajo aprobado. Cualquier comisión se muestra antes de pagar.',
    'Un único registro del proyecto. Propuestas, contratos, chat, archivos y cambios quedan juntos, así que las decisiones están documentadas y cualquiera puede ver lo acordado. Si algo sale mal, un equipo de soporte que entiende el trabajo técnico revisa la reclamación a partir de ese registro.',
    'Pensado para equipos internacionales. Workneer funciona en cinco idiomas, muestra los precios en la moneda del contrato y te permite combinar el diseño en remoto con técnicos locales para las licencias y el trabajo en obra. Hay buenos ingenieros en todas partes; Workneer te ayuda a trabajar con ellos.',
  ),
  de: paras(
    'Ein Katalog, der Ihre Sprache spricht. Projekte und Profile sind nach den sechs Bereichen der gebauten Umwelt geordnet – Planung und Strategie, Architektur und Entwurf, Ingenieurwesen, Umwelt und Versorgungsnetze, Bauökonomie sowie Projektmanagement und Bauleitung – mit der Software und den Methoden, die Ingenieure wirklich nutzen. Sie finden einen Entwässerungsplaner, der EPA SWMM beherrscht, und nicht bloß „einen Ingenieur“.',
    'Zahlungen, die der Arbeit folgen. Verträge werden in Raten aufgeteilt, die an Teilleistungen gebunden sind. Der Auftraggeber zahlt jede Rate ein, bevor die Arbeit daran beginnt, und Workneer verwahrt das Geld, bis er die Teilleistung freigibt. Freelancer wissen, dass das Geld bereitliegt; Auftraggeber wissen, dass sie nur abgenommene Leistungen bezahlen. Jede Gebühr wird vor der Zahlung angezeigt.',
    'Eine gemeinsame Projektakte. Angebote, Verträge, Chat, Dateien und Änderungen bleiben beisammen, sodass Entscheidungen dokumentiert sind und jederzeit nachvollziehbar ist, was vereinbart wurde. Gibt es Probleme, prüft ein Support-Team, das Ingenieurarbeit versteht, die Beschwerde anhand dieser Akte.',
    'Gemacht für internationale Teams. Workneer gibt es in fünf Sprachen, zeigt Preise in der Vertragswährung und ermöglicht es, ortsunabhängige Planung mit Fachleuten vor Ort für Genehmigungen und Baustelle zu kombinieren. Gute Ingenieure gibt es überall – Workneer hilft Ihnen, mit ihnen zu arbeiten.',
  ),
  it: paras(
    "Un catalogo che parla la tua lingua. Progetti e profili sono organizzati secondo le sei aree dell'ambiente costruito — pianificazione e strategia, architettura e design, ingegneria, ambiente e sottoservizi, economia delle costruzioni, project management e direzione lavori — con i software e i metodi che gli ingegneri usano davvero. Trovi un progettista di reti di drenaggio che conosce EPA SWMM, non semplicemente «un ingegnere».",
    'Pagamenti che seguono il lavoro. I contratti sono suddivisi in rate legate agli elaborati. Il cliente versa ogni rata prima che inizi il lavoro corrispondente e Workneer trattiene i fondi finché il cliente non approva la consegna. Il professionista sa che i soldi ci sono; il cliente sa che paga solo il lavoro approvato. Ogni commissione è indicata prima del pagamento.',
    "Un'unica documentazione di progetto. Proposte, contratti, chat, file e modifiche restano insieme: le decisioni sono documentate e chiunque può vedere cosa è stato concordato. Se qualcosa va storto, un team di assistenza che conosce il lavoro tecnico esamina il reclamo sulla base di questa documentazione.",
    'Pensato per team internazionali. Workneer è disponibile in cinque lingue, mostra i prezzi nella valuta del contratto e ti permette di affiancare alla progettazione da remoto professionisti locali per autorizzazioni e cantiere. I bravi ingegneri sono ovunque: Workneer ti aiuta a lavorare con loro.',
  ),
  ru: paras(
    'Каталог, который говорит на вашем языке. Проекты и профили организованы по шести направлениям строительной отрасли — планирование и стратегия, архитектура и дизайн, инженерное проектирование, экология и инженерные сети, экономика строительства, управление проектами и строительством — с тем ПО и методами, которыми инженеры пользуются на самом деле. Вы найдёте специалиста по ливневой канализации, владеющего EPA SWMM, а не просто «инженера».',
    'Оплата, которая следует за работой. Контракты разбиты на этапы, привязанные к результатам. Заказчик оплачивает каждый этап до начала работ по нему, а Workneer удерживает деньги, пока заказчик не примет результат. Исполнитель знает, что деньги внесены; заказчик знает, что платит только за принятую работу. Любая комиссия показывается до оплаты.',
    'Единая история проекта. Предложения, контракты, переписка, файлы и изменения хранятся вместе: решения задокументированы, и всегда видно, о чём договорились стороны. Если что-то пошло не так, жалобу рассматривает служба поддержки, которая разбирается в инженерной работе и опирается на эту историю.',
    'Для международных команд. Workneer работает на пяти языках, показывает цены в валюте контракта и позволяет сочетать удалённое проектирование с работой местных специалистов над разрешениями и на площадке. Хорошие инженеры есть везде — Workneer помогает вам работать с ними.',
  ),
}

/** Terms and conditions: twelve numbered sections per language, "N. Title\nText", separated by a blank line. */
export const terms: Localized = {
  en: sections(
    [
      'About these terms',
      'These terms govern your use of Workneer, an online marketplace where clients and freelancers in planning, design, engineering and construction find each other and work together. By creating an account or using the platform you accept them. If you use Workneer on behalf of a company, you confirm that you are authorised to bind that company.',
    ],
    [
      'Accounts',
      'You must be at least 18 years old and give accurate, up-to-date information. Keep your login details secret: you are responsible for everything done with your account. We may verify your identity and may suspend accounts that give false information or break these terms.',
    ],
    [
      "Workneer's role",
      'Workneer provides the platform, the contract records, messaging and payment handling. Workneer is not a party to the contract between client and freelancer, does not employ freelancers and does not check or approve their technical work. Each freelancer is responsible for the quality of their work and for holding any licence, registration or insurance that the work requires.',
    ],
    [
      'Projects, proposals and contracts',
      'Clients must describe projects truthfully and may only post lawful work. Freelancers may only propose for work they are qualified to perform and must state the relevant limits, assumptions and codes in their proposal. A contract is formed when a client accepts a proposal; its scope, price, currency and installments are recorded on Workneer, and both parties must agree any change there.',
    ],
    [
      'Payments and installments',
      "The client pays each installment before work on it starts. Workneer holds the money until the client approves the deliverable, or until a complaint about it is resolved, and then releases it to the freelancer's balance. Clients should review deliverables promptly and in good faith. Freelancers can have released funds paid out to their payout method.",
    ],
    [
      'Fees and taxes',
      'Workneer charges service fees for its services. The applicable fee and the total amount are shown before you confirm a payment, send a proposal or request a payout; you are never charged a fee you have not been shown. Each user is responsible for their own taxes, invoices and reporting obligations.',
    ],
    [
      'Acceptable use',
      "Do not post false, offensive or unlawful content, do not use contact details shared on Workneer to take contracted work and its payment off the platform, and do not misuse other users' data. Treat other users with respect and keep project communication on Workneer.",
    ],
    [
      'Intellectual property and confidentiality',
      "Unless the contract says otherwise, the rights the client needs to use the deliverables for the project pass to the client once the related installments are paid in full. Freelancers keep their pre-existing know-how, templates and tools. Both parties keep each other's confidential information confidential and use it only for the project.",
    ],
    [
      'Complaints and disputes',
      'If client and freelancer cannot resolve a disagreement, either of them can open a complaint through ticket support. While it is open, the money for the affected installment stays held. Workneer reviews the contract, the deliverables and the messages and decides how the held money is released or refunded. This does not limit any rights you have under applicable law.',
    ],
    [
      'Liability',
      'Workneer operates the platform with reasonable care but cannot guarantee uninterrupted availability. Workneer is not liable for the design, advice or work of freelancers, for the conduct of clients, or for any building or structure based on that work. Nothing in these terms limits liability where the law does not allow it to be limited.',
    ],
    [
      'Closing an account',
      'You can close your account at any time once your open contracts and payments are settled. We may suspend or close accounts that break these terms. Records of contracts and payments are kept for as long as the law requires.',
    ],
    [
      'Changes and contact',
      'We may update these terms. We will tell you about material changes in advance, and continuing to use Workneer after they take effect means you accept them. You can send us questions through ticket support or the contact page.',
    ],
  ),
  es: sections(
    [
      'Sobre estas condiciones',
      'Estas condiciones regulan el uso de Workneer, un marketplace en línea en el que clientes y profesionales de la planificación, el diseño, la ingeniería y la construcción se encuentran y trabajan juntos. Al crear una cuenta o usar la plataforma, las aceptas. Si usas Workneer en nombre de una empresa, confirmas que tienes facultades para obligarla.',
    ],
    [
      'Cuentas',
      'Debes ser mayor de 18 años y facilitar información veraz y actualizada. Mantén en secreto tus datos de acceso: eres responsable de todo lo que se haga con tu cuenta. Podemos verificar tu identidad y suspender las cuentas que faciliten información falsa o incumplan estas condiciones.',
    ],
    [
      'El papel de Workneer',
      'Workneer ofrece la plataforma, el registro de los contratos, la mensajería y la gestión de los pagos. Workneer no es parte del contrato entre cliente y profesional, no emplea a los profesionales y no revisa ni aprueba su trabajo técnico. Cada profesional es responsable de la calidad de su trabajo y de contar con las habilitaciones, colegiaciones o seguros que ese trabajo exija.',
    ],
    [
      'Proyectos, propuestas y contratos',
      'Los clientes deben describir los proyectos con veracidad y solo pueden publicar trabajos lícitos. Los profesionales solo pueden presentar propuestas para trabajos para los que estén cualificados y deben indicar en ellas los límites, hipótesis y normas relevantes. El contrato se forma cuando el cliente acepta una propuesta; su alcance, precio, moneda y pagos parciales quedan registrados en Workneer, y cualquier cambio debe acordarse allí entre ambas partes.',
    ],
    [
      'Pagos y pagos parciales',
      'El cliente abona cada pago parcial antes de que empiece el trabajo correspondiente. Workneer retiene el importe hasta que el cliente aprueba el entregable, o hasta que se resuelve una reclamación sobre él, y después lo libera al saldo del profesional. Los clientes deben revisar los entregables con diligencia y buena fe. Los profesionales pueden retirar los fondos liberados a su método de cobro.',
    ],
    [
      'Comisiones e impuestos',
      'Workneer cobra comisiones por sus servicios. La comisión aplicable y el importe total se muestran antes de que confirmes un pago, envíes una propuesta o solicites una retirada; nunca se te cobrará una comisión que no se te haya mostrado. Cada usuario es responsable de sus propios impuestos, facturas y obligaciones de información.',
    ],
    [
      'Uso aceptable',
      'No publiques contenido falso, ofensivo o ilícito, no utilices los datos de contacto compartidos en Workneer para sacar de la plataforma un trabajo contratado y su pago, y no hagas un uso indebido de los datos de otros usuarios. Trata a los demás con respeto y mantén la comunicación del proyecto en Workneer.',
    ],
    [
      'Propiedad intelectual y confidencialidad',
      'Salvo que el contrato diga otra cosa, los derechos que el cliente necesita para usar los entregables en su proyecto se transmiten al cliente cuando se han abonado íntegramente los pagos parciales correspondientes. El profesional conserva sus conocimientos, plantillas y herramientas previos. Ambas partes mantienen la confidencialidad de la información de la otra y solo la utilizan para el proyecto.',
    ],
    [
      'Reclamaciones y disputas',
      'Si cliente y profesional no consiguen resolver un desacuerdo, cualquiera de ellos puede abrir una reclamación a través del soporte. Mientras esté abierta, el importe del pago parcial afectado sigue retenido. Workneer revisa el contrato, los entregables y los mensajes y decide cómo se libera o se reembolsa el importe retenido. Esto no limita los derechos que te reconozca la legislación aplicable.',
    ],
    [
      'Responsabilidad',
      'Workneer gestiona la plataforma con una diligencia razonable, pero no puede garantizar que esté disponible sin interrupciones. Workneer no responde del diseño, el asesoramiento ni el trabajo de los profesionales, de la conducta de los clientes ni de ninguna edificación o estructura basada en ese trabajo. Nada de lo dispuesto en estas condiciones limita la responsabilidad en los casos en que la ley no lo permite.',
    ],
    [
      'Cierre de la cuenta',
      'Puedes cerrar tu cuenta en cualquier momento, una vez liquidados tus contratos y pagos pendientes. Podemos suspender o cerrar las cuentas que incumplan estas condiciones. Los registros de contratos y pagos se conservan durante el tiempo que exija la ley.',
    ],
    [
      'Cambios y contacto',
      'Podemos actualizar estas condiciones. Te avisaremos con antelación de los cambios importantes, y si sigues usando Workneer después de su entrada en vigor, los aceptas. Puedes enviarnos tus preguntas a través del soporte o de la página de contacto.',
    ],
  ),
  de: sections(
    [
      'Geltungsbereich',
      'Diese Bedingungen regeln die Nutzung von Workneer, einem Online-Marktplatz, auf dem Auftraggeber und Freelancer aus Planung, Entwurf, Ingenieurwesen und Bau zueinanderfinden und zusammenarbeiten. Mit der Registrierung oder der Nutzung der Plattform erkennen Sie sie an. Wenn Sie Workneer für ein Unternehmen nutzen, bestätigen Sie, dass Sie berechtigt sind, dieses zu vertreten.',
    ],
    [
      'Konten',
      'Sie müssen mindestens 18 Jahre alt sein und zutreffende, aktuelle Angaben machen. Halten Sie Ihre Zugangsdaten geheim; Sie sind für alle Handlungen über Ihr Konto verantwortlich. Wir können Ihre Identität überprüfen und Konten sperren, die falsche Angaben enthalten oder gegen diese Bedingungen verstoßen.',
    ],
    [
      'Rolle von Workneer',
      'Workneer stellt die Plattform, die Vertragsdokumentation, die Nachrichtenfunktion und die Zahlungsabwicklung bereit. Workneer ist nicht Partei des Vertrags zwischen Auftraggeber und Freelancer, beschäftigt keine Freelancer und prüft oder genehmigt deren fachliche Arbeit nicht. Jeder Freelancer ist für die Qualität seiner Leistungen verantwortlich und dafür, über die erforderlichen Zulassungen, Kammereintragungen und Versicherungen zu verfügen.',
    ],
    [
      'Projekte, Angebote und Verträge',
      'Auftraggeber müssen Projekte wahrheitsgemäß beschreiben und dürfen nur rechtmäßige Aufträge einstellen. Freelancer dürfen nur Angebote für Leistungen abgeben, für die sie qualifiziert sind, und müssen darin wesentliche Grenzen, Annahmen und Normen angeben. Ein Vertrag kommt zustande, wenn ein Auftraggeber ein Angebot annimmt; Umfang, Preis, Währung und Raten werden auf Workneer festgehalten, und Änderungen müssen dort von beiden Seiten vereinbart werden.',
    ],
    [
      'Zahlungen und Raten',
      'Der Auftraggeber zahlt jede Rate ein, bevor die Arbeit daran beginnt. Workneer verwahrt den Betrag, bis der Auftraggeber die Teilleistung freigibt oder eine Beschwerde dazu geklärt ist, und schreibt ihn dann dem Guthaben des Freelancers gut. Auftraggeber sollen Teilleistungen zügig und nach Treu und Glauben prüfen. Freelancer können freigegebene Beträge über ihre Auszahlungsmethode auszahlen lassen.',
    ],
    [
      'Gebühren und Steuern',
      'Workneer berechnet für seine Leistungen Servicegebühren. Die anfallende Gebühr und der Gesamtbetrag werden angezeigt, bevor Sie eine Zahlung bestätigen, ein Angebot senden oder eine Auszahlung anfordern; es wird keine Gebühr berechnet, die Ihnen nicht vorher angezeigt wurde. Jeder Nutzer ist für seine eigenen Steuern, Rechnungen und Meldepflichten verantwortlich.',
    ],
    [
      'Zulässige Nutzung',
      'Veröffentlichen Sie keine falschen, beleidigenden oder rechtswidrigen Inhalte, nutzen Sie auf Workneer geteilte Kontaktdaten nicht, um beauftragte Leistungen und deren Bezahlung an der Plattform vorbei abzuwickeln, und missbrauchen Sie keine Daten anderer Nutzer. Begegnen Sie anderen respektvoll und führen Sie die Projektkommunikation über Workneer.',
    ],
    [
      'Nutzungsrechte und Vertraulichkeit',
      'Sofern der Vertrag nichts anderes bestimmt, gehen die Nutzungsrechte, die der Auftraggeber für sein Projekt benötigt, auf ihn über, sobald die zugehörigen Raten vollständig bezahlt sind. Freelancer behalten ihr vorbestehendes Know-how, ihre Vorlagen und Werkzeuge. Beide Seiten behandeln vertrauliche Informationen der anderen Seite vertraulich und nutzen sie nur für das Projekt.',
    ],
    [
      'Beschwerden und Streitfälle',
      'Können Auftraggeber und Freelancer eine Meinungsverschiedenheit nicht selbst lösen, kann jede Seite über den Support eine Beschwerde einreichen. Solange sie offen ist, bleibt der Betrag der betroffenen Rate verwahrt. Workneer prüft Vertrag, Teilleistungen und Nachrichten und entscheidet, wie der verwahrte Betrag freigegeben oder erstattet wird. Ihre gesetzlichen Rechte bleiben davon unberührt.',
    ],
    [
      'Haftung',
      'Workneer betreibt die Plattform mit angemessener Sorgfalt, kann jedoch keine ununterbrochene Verfügbarkeit garantieren. Workneer haftet nicht für Planung, Beratung oder sonstige Leistungen der Freelancer, für das Verhalten von Auftraggebern oder für Bauwerke, die auf diesen Leistungen beruhen. Keine Bestimmung dieser Bedingungen beschränkt die Haftung, soweit das Gesetz eine Beschränkung nicht zulässt.',
    ],
    [
      'Schließen des Kontos',
      'Sie können Ihr Konto jederzeit schließen, sobald offene Verträge und Zahlungen abgewickelt sind. Wir können Konten sperren oder schließen, die gegen diese Bedingungen verstoßen. Unterlagen zu Verträgen und Zahlungen werden so lange aufbewahrt, wie es das Gesetz vorschreibt.',
    ],
    [
      'Änderungen und Kontakt',
      'Wir können diese Bedingungen anpassen. Über wesentliche Änderungen informieren wir Sie vorab; nutzen Sie Workneer nach deren Inkrafttreten weiter, gelten sie als angenommen. Fragen können Sie über den Support oder die Kontaktseite an uns richten.',
    ],
  ),
  it: sections(
    [
      'Oggetto',
      "I presenti termini regolano l'uso di Workneer, un marketplace online in cui clienti e professionisti della pianificazione, della progettazione, dell'ingegneria e delle costruzioni si incontrano e lavorano insieme. Creando un account o utilizzando la piattaforma, li accetti. Se usi Workneer per conto di un'azienda, confermi di avere il potere di impegnarla.",
    ],
    [
      'Account',
      'Devi avere almeno 18 anni e fornire informazioni corrette e aggiornate. Mantieni riservate le tue credenziali: sei responsabile di tutto ciò che avviene tramite il tuo account. Possiamo verificare la tua identità e sospendere gli account che forniscono informazioni false o violano questi termini.',
    ],
    [
      'Ruolo di Workneer',
      "Workneer fornisce la piattaforma, la registrazione dei contratti, la messaggistica e la gestione dei pagamenti. Workneer non è parte del contratto tra cliente e professionista, non impiega i professionisti e non verifica né approva il loro lavoro tecnico. Ogni professionista è responsabile della qualità del proprio lavoro e del possesso delle abilitazioni, iscrizioni agli albi e coperture assicurative richieste dall'incarico.",
    ],
    [
      'Progetti, proposte e contratti',
      'I clienti devono descrivere i progetti in modo veritiero e possono pubblicare solo incarichi leciti. I professionisti possono presentare proposte solo per attività per cui sono qualificati e devono indicarvi limiti, ipotesi e norme rilevanti. Il contratto si conclude quando il cliente accetta una proposta; ambito, prezzo, valuta e rate sono registrati su Workneer e ogni modifica deve essere concordata lì da entrambe le parti.',
    ],
    [
      'Pagamenti e rate',
      "Il cliente versa ogni rata prima che inizi il lavoro corrispondente. Workneer trattiene l'importo finché il cliente non approva la consegna, o finché non viene risolto un reclamo che la riguarda, e poi lo accredita sul saldo del professionista. I clienti devono esaminare le consegne con tempestività e buona fede. I professionisti possono prelevare gli importi accreditati tramite il proprio metodo di incasso.",
    ],
    [
      'Commissioni e imposte',
      "Workneer applica commissioni per i propri servizi. La commissione applicabile e l'importo totale sono indicati prima che tu confermi un pagamento, invii una proposta o richieda un prelievo; non ti verrà mai addebitata una commissione che non ti sia stata mostrata. Ogni utente è responsabile delle proprie imposte, fatture e obblighi dichiarativi.",
    ],
    [
      'Uso consentito',
      'Non pubblicare contenuti falsi, offensivi o illeciti, non usare i recapiti condivisi su Workneer per spostare fuori dalla piattaforma un incarico già contrattualizzato e il relativo pagamento e non fare un uso improprio dei dati di altri utenti. Tratta gli altri con rispetto e mantieni su Workneer le comunicazioni di progetto.',
    ],
    [
      'Proprietà intellettuale e riservatezza',
      "Salvo diversa previsione del contratto, i diritti necessari al cliente per utilizzare gli elaborati nel proprio progetto passano al cliente una volta saldate integralmente le rate corrispondenti. Il professionista conserva il proprio know-how preesistente, i propri modelli di lavoro e strumenti. Entrambe le parti mantengono riservate le informazioni confidenziali dell'altra e le usano solo per il progetto.",
    ],
    [
      'Reclami e controversie',
      "Se cliente e professionista non riescono a risolvere un disaccordo, ciascuno dei due può aprire un reclamo tramite l'assistenza. Finché il reclamo è aperto, l'importo della rata interessata resta trattenuto. Workneer esamina contratto, consegne e messaggi e decide come svincolare o rimborsare l'importo trattenuto. Restano salvi i diritti che ti riconosce la legge applicabile.",
    ],
    [
      'Responsabilità',
      'Workneer gestisce la piattaforma con ragionevole diligenza, ma non può garantirne la disponibilità ininterrotta. Workneer non risponde della progettazione, della consulenza o del lavoro dei professionisti, del comportamento dei clienti né delle opere realizzate sulla base di tale lavoro. Nessuna disposizione dei presenti termini limita la responsabilità nei casi in cui la legge non lo consente.',
    ],
    [
      "Chiusura dell'account",
      'Puoi chiudere il tuo account in qualsiasi momento, dopo aver definito i contratti e i pagamenti in corso. Possiamo sospendere o chiudere gli account che violano questi termini. La documentazione relativa a contratti e pagamenti è conservata per il tempo richiesto dalla legge.',
    ],
    [
      'Modifiche e contatti',
      "Possiamo aggiornare questi termini. Ti informeremo in anticipo delle modifiche rilevanti; se continui a usare Workneer dopo la loro entrata in vigore, le accetti. Puoi inviarci le tue domande tramite l'assistenza o la pagina dei contatti.",
    ],
  ),
  ru: sections(
    [
      'Общие положения',
      'Настоящие условия регулируют использование Workneer — онлайн-площадки, на которой заказчики и специалисты в области планирования, проектирования, инженерии и строительства находят друг друга и работают вместе. Создавая аккаунт или пользуясь площадкой, вы принимаете эти условия. Если вы используете Workneer от имени компании, вы подтверждаете, что уполномочены действовать от её имени.',
    ],
    [
      'Аккаунты',
      'Вам должно быть не меньше 18 лет, и вы обязаны указывать достоверные и актуальные сведения. Храните данные для входа в тайне: вы отвечаете за все действия, совершённые через ваш аккаунт. Мы можем проверить вашу личность и заблокировать аккаунты, в которых указаны ложные сведения или которые нарушают эти условия.',
    ],
    [
      'Роль Workneer',
      'Workneer предоставляет площадку, учёт контрактов, обмен сообщениями и проведение платежей. Workneer не является стороной контракта между заказчиком и исполнителем, не нанимает исполнителей и не проверяет и не утверждает их техническую работу. Каждый исполнитель отвечает за качество своей работы и за наличие лицензий, допусков и страхования, которых эта работа требует.',
    ],
    [
      'Проекты, предложения и контракты',
      'Заказчики обязаны достоверно описывать проекты и размещать только законные задания. Исполнители вправе отправлять предложения только на работы, для которых у них есть квалификация, и должны указывать в них существенные ограничения, допущения и применяемые нормы. Контракт заключается, когда заказчик принимает предложение; объём работ, цена, валюта и этапы оплаты фиксируются на Workneer, и любые изменения должны согласовываться там обеими сторонами.',
    ],
    [
      'Платежи и этапы',
      'Заказчик оплачивает каждый этап до начала работ по нему. Workneer удерживает сумму, пока заказчик не примет результат или пока не будет рассмотрена жалоба по нему, после чего зачисляет её на баланс исполнителя. Заказчики должны проверять результаты своевременно и добросовестно. Исполнители могут выводить зачисленные средства выбранным способом получения выплат.',
    ],
    [
      'Комиссии и налоги',
      'Workneer взимает сервисные комиссии за свои услуги. Применимая комиссия и итоговая сумма показываются до того, как вы подтвердите платёж, отправите предложение или запросите выплату; с вас никогда не будет удержана комиссия, которую вам не показали. Каждый пользователь самостоятельно отвечает за свои налоги, счета и отчётность.',
    ],
    [
      'Допустимое использование',
      'Не публикуйте ложные, оскорбительные или незаконные материалы, не используйте контактные данные, полученные на Workneer, чтобы вывести оформленную работу и её оплату за пределы площадки, и не злоупотребляйте данными других пользователей. Относитесь к другим с уважением и ведите переписку по проекту на Workneer.',
    ],
    [
      'Интеллектуальная собственность и конфиденциальность',
      'Если в контракте не указано иное, права, необходимые заказчику для использования результатов в своём проекте, переходят к нему после полной оплаты соответствующих этапов. Исполнитель сохраняет ранее созданные наработки, шаблоны и инструменты. Обе стороны сохраняют конфиденциальность информации друг друга и используют её только для проекта.',
    ],
    [
      'Жалобы и споры',
      'Если заказчик и исполнитель не могут урегулировать разногласие, любой из них может подать жалобу через службу поддержки. Пока жалоба открыта, сумма соответствующего этапа остаётся удержанной. Workneer изучает контракт, результаты и переписку и решает, как будет выплачена или возвращена удержанная сумма. Это не ограничивает ваших прав по применимому законодательству.',
    ],
    [
      'Ответственность',
      'Workneer поддерживает работу площадки с разумной осмотрительностью, но не может гарантировать её бесперебойную доступность. Workneer не несёт ответственности за проектные решения, консультации и работу исполнителей, за действия заказчиков, а также за здания и сооружения, созданные на основе этой работы. Ничто в настоящих условиях не ограничивает ответственность в случаях, когда закон не допускает такого ограничения.',
    ],
    [
      'Закрытие аккаунта',
      'Вы можете закрыть аккаунт в любой момент после завершения открытых контрактов и расчётов. Мы можем заблокировать или закрыть аккаунты, нарушающие эти условия. Сведения о контрактах и платежах хранятся столько, сколько требует закон.',
    ],
    [
      'Изменения и связь с нами',
      'Мы можем обновлять эти условия. О существенных изменениях мы сообщим заранее; продолжая пользоваться Workneer после их вступления в силу, вы их принимаете. Вопросы можно задать через службу поддержки или на странице контактов.',
    ],
  ),
}
