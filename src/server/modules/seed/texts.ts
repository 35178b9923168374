// Phrase lists for demo headings and about texts: tasteful, non-explicit, composed at random.
// `{city}` and `{name}` are filled in per profile.
import type { Random } from './random';

export const HEADINGS = {
  female: [
    'Elegant companion for dinner dates in {city}',
    'Warm smile, good conversation',
    'Sophisticated company for the discerning',
    'Your relaxed evening in {city}',
    'Independent, discreet and always punctual',
    'A charming travel companion',
    'Natural, cheerful and easy to talk to',
    'Classic elegance with a playful side',
    'Art lover and excellent dinner partner',
    'Time well spent, without hurry',
    'Refined company for business trips',
    'Calm, attentive and genuinely curious',
    'Sunny personality, stylish company',
    'Cultured companion in {city}',
    'Theatre nights and long dinners',
  ],
  male: [
    'Gentleman companion in {city}',
    'Attentive company for dinners and events',
    'Relaxed, well-travelled and discreet',
    'Your plus-one for the evening',
    'Easy-going company with good manners',
    'Athletic, friendly and a good listener',
    'Stylish escort for social occasions',
    'Calm confidence and a warm sense of humour',
    'Companion for city walks and fine dining',
    'Thoughtful company in {city}',
  ],
  trans: [
    'Glamorous companion in {city}',
    'Confident, warm and full of life',
    'Elegant company for evenings out',
    'Fashion lover with a big heart',
    'Sweet, stylish and always discreet',
    'Your glamorous plus-one',
    'Bright smile, open mind',
    'Charming company in {city}',
    'Sophisticated and fun to be with',
    'Relaxed evenings, good conversation',
  ],
  dominatrix: [
    'Elegant dominatrix in {city}',
    'Strict, stylish and fair',
    'Firm hand, velvet glove',
    'Confident lady of the house rules',
    'Classic mistress with impeccable manners',
    'Clear rules, calm authority',
    'Discreet sessions with an experienced mistress',
  ],
} as const;

const OPENINGS = [
  "Hello, I'm {name}, and I live in {city}.",
  'Welcome to my page. I am {name}, an independent companion based in {city}.',
  "Hi there, I'm {name}.",
  'Thank you for stopping by. My name is {name} and {city} has been my home for several years.',
  "I'm {name}, a curious and cheerful person who loves the pace of {city}.",
];

const PERSONALITY = [
  'Friends describe me as warm, witty and a little mischievous.',
  'I am calm by nature and a very good listener.',
  'I love laughing, and I take good care of the people I spend time with.',
  'Discretion and punctuality matter to me as much as a good conversation.',
  'I am open-minded, well-travelled and always well dressed for the occasion.',
  'I have an easy smile and I like to make people feel at home.',
  'People say I am elegant in public and wonderfully relaxed in private.',
  'I am a positive person who enjoys life and its small pleasures.',
];

const INTERESTS = [
  'In my free time I go to the theatre, read novels and try new restaurants.',
  'I enjoy art galleries, jazz bars and long walks along the river.',
  'I practise yoga every morning and I love cooking for friends.',
  'Travel is my passion, and I speak about it for hours if you let me.',
  'I adore fine wine, good coffee and markets on a Sunday morning.',
  'Music plays a big part in my life, from classical concerts to small live clubs.',
  'I like fashion, photography and discovering hidden corners of the city.',
  'Books, films and a good debate over dinner make me happy.',
];

const MEETINGS = [
  'A date with me can be a quiet dinner, a drink in a cosy bar or an evening at a concert.',
  'I prefer to meet without hurry, so we have time to get to know each other.',
  'I am happy to accompany you to business dinners, social events or on a weekend away.',
  'Let me know what you have in mind and I will make sure the time feels easy and natural.',
  'Whether it is a short coffee or a whole evening, I want you to leave with a smile.',
  'I am an excellent travel companion and I pack light.',
];

const DOMINATRIX = [
  'My sessions follow clear rules that we agree on beforehand, and your limits are always respected.',
  'Beginners are welcome: we talk first, and everything happens at a pace that suits you.',
  'I value trust, respect and honesty above everything else.',
  'My private studio is discreet, clean and well equipped for role play.',
];

const PRACTICAL = [
  'Please call or send a message in advance; I reply as soon as I can.',
  'I answer messages during my available hours and ask for a little notice before we meet.',
  'Bookings are best made a day ahead, but same-day plans are sometimes possible.',
  'I only meet adults and I appreciate polite, respectful messages.',
  'Please introduce yourself briefly when you get in touch.',
];

const CLOSINGS = [
  'I look forward to hearing from you.',
  'See you soon, I hope.',
  'Until then, take care.',
  'Write to me, and let us plan something lovely.',
  'I hope we meet soon.',
];

export function fill(template: string, values: { name: string; city: string }): string {
  return template.replace(/\{name\}/g, values.name).replace(/\{city\}/g, values.city);
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** An about text of `min`..`max` words: opening, a few body sentences, practical note, closing. */
export function composeAbout(
  rnd: Random,
  values: { name: string; city: string; dominatrix: boolean },
  min = 60,
  max = 150,
): string {
  const target = rnd.int(min, max);
  const head = fill(rnd.pick(OPENINGS), values);
  const tail = [rnd.pick(PRACTICAL), rnd.pick(CLOSINGS)];
  const pool = rnd.sample([...PERSONALITY, ...INTERESTS, ...MEETINGS], 12);
  if (values.dominatrix) pool.unshift(...rnd.sample(DOMINATRIX, 2));
  const body: string[] = [];
  let count = words(head) + tail.reduce((n, s) => n + words(s), 0);
  for (const sentence of pool) {
    if (count >= target) break;
    if (count + words(sentence) > max) continue;
    body.push(sentence);
    count += words(sentence);
  }
  const paragraphs = [[head, ...body.slice(0, 2)], body.slice(2), tail].filter((p) => p.length);
  return paragraphs.map((p) => p.join(' ')).join('\n\n');
}

/** Areas of big cities, for the optional "City - Place" label. */
export const PLACES: Record<string, string[]> = {
  'GB/london': ['Mayfair', 'Soho', 'Kensington', 'Chelsea', 'Marylebone', 'Canary Wharf', 'Knightsbridge'],
  'GB/manchester': ['City Centre', 'Northern Quarter', 'Spinningfields'],
  'DE/berlin': ['Mitte', 'Charlottenburg', 'Prenzlauer Berg', 'Kreuzberg', 'Schöneberg'],
  'DE/hamburg': ['St. Georg', 'Altona', 'HafenCity', 'Eppendorf'],
  'DE/munich': ['Schwabing', 'Maxvorstadt', 'Bogenhausen'],
  'FR/paris': ['Le Marais', 'Saint-Germain', 'Montmartre', 'Opéra', 'Champs-Élysées'],
  'ES/madrid': ['Salamanca', 'Chamberí', 'Malasaña', 'Chueca', 'Retiro'],
  'ES/barcelona': ['Eixample', 'Gràcia', 'El Born', 'Sarrià'],
  'US/new-york-city': ['Manhattan', 'Midtown', 'Upper East Side', 'Brooklyn', 'SoHo'],
  'US/los-angeles': ['Beverly Hills', 'Santa Monica', 'West Hollywood', 'Downtown'],
  'IT/rome': ['Trastevere', 'Parioli', 'Prati', 'Monti'],
  'IT/milan': ['Brera', 'Navigli', 'Porta Nuova'],
  'NL/amsterdam': ['Jordaan', 'De Pijp', 'Oud-Zuid', 'Centrum'],
  'AT/vienna': ['Innere Stadt', 'Leopoldstadt', 'Neubau'],
  'CH/zurich': ['Altstadt', 'Seefeld', 'Enge'],
  'AE/dubai': ['Dubai Marina', 'Downtown', 'Jumeirah', 'Business Bay'],
  'AU/sydney': ['CBD', 'Bondi', 'Surry Hills', 'Darling Harbour'],
};
export const GENERIC_PLACES = ['City Centre', 'Old Town', 'Near the central station', 'Business district', 'Riverside'];
export const LANDMARKS = [
  'Near the central station',
  'Close to the old town',
  'Five minutes from the airport hotel',
  'By the main park',
  'Opposite the opera house',
];
