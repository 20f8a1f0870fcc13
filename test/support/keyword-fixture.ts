import type { Opportunity } from '../../src/domain/record';
import { CLASSES, classified, makeRecord } from './fixtures';

// Records for the keyword search (contract §7.2): titles chosen for stemming (developer /
// developers), every synonym pair of the repository's list written one way or the other, phrases
// and their word order, case, accents, possessives, punctuation, OR and exclusions. Unclassified
// and without specializations or organizations unless a case needs them, so that only the named
// text can match. Each has its own day: the freshness order is known.

const NONE = classified([null, null, null, null]);

const TEXTS: ReadonlyArray<Partial<Opportunity> & { title: string }> = [
  { title: 'Senior Golang Developer', specializations: ['kubernetes'], employer: 'Stripe' },
  { title: 'Go Developers for a payments team' },
  { title: 'JavaScript Engineer' },
  { title: 'JS Developer' },
  { title: 'Kubernetes Platform Engineer' },
  { title: 'K8s Reliability Lead' },
  { title: 'Software Engineer, Payments' },
  { title: 'SWE II' },
  { title: 'Machine Learning Engineer' },
  { title: 'ML Scientist' },
  { title: 'Artificial Intelligence Researcher' },
  { title: 'AI Trainer' },
  { title: 'Développeur Python Sénior' },
  { title: 'PostgreSQL DBA' },
  { title: 'Postgres Database Administrator' },
  { title: 'Data Engineer', employer: 'Snowflake Inc' },
  { title: 'Engineer, Data Platform' },
  { title: 'ReactJS Frontend Developer' },
  { title: 'Frontend Wizard', ...classified(CLASSES.react) },
  { title: 'DevOps Engineer' },
  { title: 'Dev Ops Specialist' },
  { title: 'C++ Developer' },
  { title: 'Node.js Backend Developer' },
  { title: 'TypeScript Developer' },
  { title: 'TS Architect' },
  { title: "Contractor's Handbook Writer" },
  { title: 'Rust Engineer', employer: 'Ferrous Systems' },
  { title: 'SAP Go-Live Support Consultant' },
  { title: 'Go-to-Market Lead' },
  { title: 'C# .NET Programmer' },
  { title: 'Embedded C Programmer' },
  // Its accent written as its own combining character (decomposed), as some sources send it.
  { title: 'Cafe\u0301 Platform Lead' },
  // A colon between letters, which the standard tokenizer would keep inside one word.
  { title: 'Contract:Kotlin Wrangler' },
  // Accents beyond Latin: precomposed Greek and Cyrillic letters, a Greek title in capitals.
  { title: 'Προγραμματιστής Kiwi' },
  { title: 'ΑΡΧΙΤΈΚΤΟΝΑΣ Dingo' },
  { title: 'Архитектор Йошкар' },
  // Plurals that KStem leaves alone (its dictionary holds them as words), and short words whose s
  // is not a plural.
  { title: 'Mobile Games Tester' },
  { title: 'Game Economy Designer' },
  { title: 'Human Resources Partner' },
  { title: 'iOS Artisan' },
  { title: 'IO Scheduler Tinkerer' },
  // A name that ends in s is not a plural: Ruby on Rails is not a railway.
  { title: 'Ruby on Rails Artisan' },
  { title: 'Rail Signalling Specialist' },
];

export const KEYWORD_FIXTURE: readonly Opportunity[] = TEXTS.map((t, i) => {
  // One day each from 2026-10-01 (past the 31st, into November).
  const at = new Date(Date.UTC(2026, 9, 1 + i, 8)).toISOString();
  return makeRecord({
    ...NONE,
    normalized_title: t.title.toLowerCase(),
    employer: null,
    organizations: [],
    specializations: [],
    published_at: at,
    first_seen: at,
    changed_at: at,
    last_verified_live_at: at,
    ...t,
  });
});

/** Every title of the fixture but those matching `pattern` and those named (text elsewhere). */
function titlesWithout(pattern: RegExp, ...alsoOut: string[]): string[] {
  return TEXTS.map((t) => t.title).filter(
    (title) => !pattern.test(title) && !alsoOut.includes(title),
  );
}

/** The fixture's records whose title is one of these, in list order (freshness desc). */
export function titled(...titles: string[]): string[] {
  return KEYWORD_FIXTURE.filter((r) => titles.includes(r.title))
    .sort((a, b) => (b.published_at as string).localeCompare(a.published_at as string))
    .map((r) => r.id);
}

/** Queries and the titles each must return: the rules of contract §7.2, §7.3, one case each. */
export const KEYWORD_CASES: ReadonlyArray<[label: string, q: string, titles: string[]]> = [
  [
    'stemming: developer matches developers',
    'developers',
    [
      'Senior Golang Developer',
      'Go Developers for a payments team',
      'JS Developer',
      'ReactJS Frontend Developer',
      'Frontend Wizard', // its class label: React Developer
      'C++ Developer',
      'Node.js Backend Developer',
      'TypeScript Developer',
    ],
  ],
  ['synonym js → javascript', 'js', ['JavaScript Engineer', 'JS Developer']],
  ['synonym javascript → js', 'javascript', ['JavaScript Engineer', 'JS Developer']],
  ['synonym ts → typescript', 'ts', ['TypeScript Developer', 'TS Architect']],
  ['synonym typescript → ts', 'TypeScript', ['TypeScript Developer', 'TS Architect']],
  [
    'synonym golang → go',
    'golang',
    ['Senior Golang Developer', 'Go Developers for a payments team'],
  ],
  ['synonym go → golang', 'go', ['Senior Golang Developer', 'Go Developers for a payments team']],
  // "Go-Live" is not the language: the go_compounds character filter keeps it one token.
  ['go-live as written', 'go-live', ['SAP Go-Live Support Consultant']],
  ['go-live as words', 'go live', ['SAP Go-Live Support Consultant']],
  ['go-live as a phrase', '"go live"', ['SAP Go-Live Support Consultant']],
  ['go-to-market as written', 'Go-To-Market', ['Go-to-Market Lead']],
  ['go-to-market as words', 'go to market', ['Go-to-Market Lead']],
  ['a word of go-to-market', 'market', ['Go-to-Market Lead']],
  [
    'synonym k8s → kubernetes (title and specialization)',
    'k8s',
    ['Senior Golang Developer', 'Kubernetes Platform Engineer', 'K8s Reliability Lead'],
  ],
  [
    'synonym kubernetes → k8s',
    'kubernetes',
    ['Senior Golang Developer', 'Kubernetes Platform Engineer', 'K8s Reliability Lead'],
  ],
  ['synonym swe → software engineer', 'swe', ['Software Engineer, Payments', 'SWE II']],
  [
    'synonym software engineer → swe',
    'software engineer',
    ['Software Engineer, Payments', 'SWE II'],
  ],
  ['synonym ml → machine learning', 'ml', ['Machine Learning Engineer', 'ML Scientist']],
  [
    'synonym machine learning → ml',
    'machine learning',
    ['Machine Learning Engineer', 'ML Scientist'],
  ],
  [
    'synonym ai → artificial intelligence',
    'ai',
    ['Artificial Intelligence Researcher', 'AI Trainer'],
  ],
  [
    'synonym artificial intelligence → ai',
    'artificial intelligence',
    ['Artificial Intelligence Researcher', 'AI Trainer'],
  ],
  ['synonym devops → dev ops', 'devops', ['DevOps Engineer', 'Dev Ops Specialist']],
  ['synonym dev ops → devops', 'dev ops', ['DevOps Engineer', 'Dev Ops Specialist']],
  [
    'synonym postgres → postgresql',
    'postgres',
    ['PostgreSQL DBA', 'Postgres Database Administrator'],
  ],
  [
    'synonym postgresql → postgres',
    'postgresql',
    ['PostgreSQL DBA', 'Postgres Database Administrator'],
  ],
  [
    'synonym react → reactjs (and the class label)',
    'react',
    ['ReactJS Frontend Developer', 'Frontend Wizard'],
  ],
  ['synonym reactjs → react', 'reactjs', ['ReactJS Frontend Developer', 'Frontend Wizard']],
  ['case-insensitive', 'RUST ENGINEER', ['Rust Engineer']],
  ['accent-insensitive, both ways', 'developpeur senior', ['Développeur Python Sénior']],
  ['accented query', 'DÉVELOPPEUR', ['Développeur Python Sénior']],
  ['possessive', 'contractor', ["Contractor's Handbook Writer"]],
  ['words ANDed across fields (employer)', 'golang stripe', ['Senior Golang Developer']],
  ['words in any order', 'engineer data', ['Data Engineer', 'Engineer, Data Platform']],
  ['phrase: adjacent, in order', '"data engineer"', ['Data Engineer']],
  ['phrase of the other order', '"engineer data"', ['Engineer, Data Platform']],
  [
    'exclusion of a word',
    'engineer -data -kubernetes',
    [
      'JavaScript Engineer',
      'Software Engineer, Payments',
      'Machine Learning Engineer',
      'DevOps Engineer',
      'Rust Engineer',
    ],
  ],
  ['exclusion of a phrase', 'data -"data engineer"', ['Engineer, Data Platform']],
  // Each exclusion on its own: two excluded words never read as one multi-word synonym (software
  // engineer = swe), so their order does not matter; SWE II holds neither word.
  // (Frontend Wizard's class is in the software_engineering family: its label holds both words.)
  [
    'exclusions in one order',
    '-software -engineer',
    titlesWithout(/\b(software|engineer)\b/i, 'Frontend Wizard'),
  ],
  [
    'exclusions in the other',
    '-engineer -software',
    titlesWithout(/\b(software|engineer)\b/i, 'Frontend Wizard'),
  ],
  ['excluded synonym words apart', '-dev -ops', titlesWithout(/\b(dev|ops)\b/i)],
  // An excluded word of several tokens excludes what it would match: records holding all of them.
  ['an excluded word of two tokens', '-python/ml', titlesWithout(/$^/)],
  [
    'OR',
    'rust OR postgresql',
    ['Rust Engineer', 'PostgreSQL DBA', 'Postgres Database Administrator'],
  ],
  [
    'OR with an AND beside it',
    'engineer rust OR platform',
    ['Rust Engineer', 'Kubernetes Platform Engineer', 'Engineer, Data Platform'],
  ],
  ['OR between phrases', '"data engineer" OR "ml scientist"', ['Data Engineer', 'ML Scientist']],
  ['lower-case or is a word', 'rust or postgresql', []],
  // C++, C# and F# are terms of their own (the cplusplus, csharp and fsharp character filters),
  // not the letter c: each finds its record only.
  ['punctuation is text: c++', 'c++', ['C++ Developer']],
  ['punctuation is text: c#', 'C#', ['C# .NET Programmer']],
  ['c is neither c++ nor c#', 'c', ['Embedded C Programmer']],
  ['c++ in a phrase', '"c++ developer"', ['C++ Developer']],
  ['c# beside .net', 'c# .net', ['C# .NET Programmer']],
  // Accents either way: precomposed or as a combining character, in the record or in q.
  ['a decomposed accent in the record', 'cafe', ['Cafe\u0301 Platform Lead']],
  ['a precomposed accent against it', 'caf\u00e9', ['Cafe\u0301 Platform Lead']],
  ['a decomposed accent in q', 'de\u0301veloppeur', ['Développeur Python Sénior']],
  ['punctuation is text: node.js', 'node.js', ['Node.js Backend Developer']],
  ['employer', 'snowflake', ['Data Engineer']],
  ['a lone - matches nothing', '-', []],
  ['a lone - beside a word adds no condition', 'rust -', ['Rust Engineer']],
  // A term the analyzer keeps nothing of used to match nothing beside a phrase or an OR group (its
  // clause stood alone there), so the whole query found nothing.
  ['a stray & beside a phrase adds no condition', '"data engineer" &', ['Data Engineer']],
  [
    'a lone - beside an OR adds no condition',
    'rust OR postgresql -',
    ['Rust Engineer', 'PostgreSQL DBA', 'Postgres Database Administrator'],
  ],
  ['an unclosed quote at the end adds no condition', 'rust "', ['Rust Engineer']],
  ['an empty phrase adds no condition', 'rust ""', ['Rust Engineer']],
  ['terms that all analyze to nothing match nothing', '- "', []],
  ['a lone - beside an exclusion: the exclusion alone', '- -rust', titlesWithout(/\brust\b/i)],
  // Accent- and case-insensitive in every script: asciifolding folds Latin letters only, so a
  // precomposed Greek or Cyrillic accent stayed, and its decomposed twin lost its mark.
  ['a Greek accent left out of q', 'προγραμματιστης', ['Προγραμματιστής Kiwi']],
  ['a Greek word in capitals in q', 'ΠΡΟΓΡΑΜΜΑΤΙΣΤΗΣ', ['Προγραμματιστής Kiwi']],
  ['a Greek accent decomposed in q', 'προγραμματιστη\u0301ς', ['Προγραμματιστής Kiwi']],
  ['a Greek record in capitals', 'αρχιτέκτονας', ['ΑΡΧΙΤΈΚΤΟΝΑΣ Dingo']],
  ['a Cyrillic letter decomposed in q', 'и\u0306ошкар', ['Архитектор Йошкар']],
  ['a Cyrillic letter without its breve', 'йошкар архитектор', ['Архитектор Йошкар']],
  ['a colon between words separates them', 'kotlin', ['Contract:Kotlin Wrangler']],
  ['either side of the colon', 'contract wrangler', ['Contract:Kotlin Wrangler']],
  ['the colon as typed', 'contract:kotlin', ['Contract:Kotlin Wrangler']],
  // English stemming beyond KStem's dictionary: a plural it keeps as a word of its own.
  ['stemming: game matches games', 'game', ['Mobile Games Tester', 'Game Economy Designer']],
  ['stemming: games matches game', 'games', ['Mobile Games Tester', 'Game Economy Designer']],
  ['stemming: resource matches resources', 'resource', ['Human Resources Partner']],
  ['a short word keeps its s: ios is not io', 'ios', ['iOS Artisan']],
  ['a short word keeps its s: io is not ios', 'io', ['IO Scheduler Tinkerer']],
  ['a kept word keeps its s: rails is not rail', 'rails', ['Ruby on Rails Artisan']],
  ['a kept word keeps its s: rail is not rails', 'rail', ['Rail Signalling Specialist']],
];

/** Queries that must never fail (400 or 5xx): punctuation, operators in odd places. */
export const HOSTILE_QUERIES: readonly string[] = [
  'c++',
  'node.js',
  'a+b|c',
  '"unbalanced',
  'unbalanced"',
  '"',
  '""',
  '-',
  '--',
  '-"',
  'OR',
  'OR OR',
  'a OR',
  'OR a',
  'a OR OR b',
  '-a OR -b',
  '-engineer',
  '-"data engineer" -rust',
  '*',
  '?',
  '\\',
  '\\"',
  '(a AND b)',
  'title:rust',
  'a~2 b^3',
  '[1 TO 5]',
  '{}',
  '/regex/',
  '&&||!',
  '💥 🚀',
  '日本語 エンジニア',
  'a'.repeat(200),
  'a '.repeat(100).trim(),
  'OR '.repeat(66).trim(),
  '-a '.repeat(66).trim(),
  '"a" '.repeat(50).trim(),
  'js OR ts OR k8s OR swe OR ml OR ai OR go OR react OR postgres OR devops OR '
    .repeat(3)
    .slice(0, 200),
  // Long phrases of words with synonyms: scored under sort=relevance over every scored field, a
  // phrase of 58 `ml` went past the engine's 1,024 clauses (503 search_unavailable, every time).
  `"${Array(58).fill('ml').join(' ')}"`,
  `"${Array(30).fill('ml ai').join(' ')}"`,
  `"${Array(22).fill('swe').join(' ')}" "${Array(22).fill('k8s').join(' ')}"`,
  Array(13).fill('"ml ai swe"').join(' OR '),
  `${Array(32).fill('swe').join(' ')} "${Array(15).fill('ml').join(' ')}"`,
  // One whitespace word of many tokens: the budget counted words by spaces, and these were 503s.
  `"${Array(66).fill('ml').join('/')}"`,
  `"${Array(66).fill('ai').join('-')}"`,
  `"${Array(40).fill('ml').join('/')}" OR "${Array(21).fill('ml').join('/')}"`,
  // Scripts written without spaces, one token a character to the analyzer; a word with synonyms
  // between them was one word to the budget (44 `ml中` were 503s).
  `"${'日本語のエンジニア'.repeat(22)}"`,
  `"${'ml中'.repeat(50)}"`,
  `"${'mlの'.repeat(66)}"`,
  `engineer "${'swe中'.repeat(47)}"`,
  `"${'데이터엔지니어'.repeat(28)}"`,
];
