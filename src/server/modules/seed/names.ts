// Invented stage names for demo advertisers. First names are common given names, the second parts
// are made-up stage surnames; any likeness to a real person is chance.
// prettier-ignore
export const FEMALE_NAMES = [
  'Adele', 'Adriana', 'Aimee', 'Alba', 'Alessia', 'Alina', 'Amara', 'Amelie', 'Anais', 'Anastasia',
  'Andrea', 'Angelique', 'Anja', 'Annika', 'Ariana', 'Astrid', 'Aurora', 'Beatrice', 'Bianca', 'Brigitte',
  'Camille', 'Carla', 'Carmen', 'Carolina', 'Cassandra', 'Celeste', 'Chantal', 'Chloe', 'Claudia', 'Clara',
  'Daniela', 'Daphne', 'Delia', 'Diana', 'Dominika', 'Elena', 'Eliza', 'Elodie', 'Emilia', 'Esme',
  'Eva', 'Fabiola', 'Felicia', 'Fiona', 'Flora', 'Francesca', 'Gabriela', 'Gemma', 'Giulia', 'Greta',
  'Hanna', 'Helena', 'Ines', 'Irina', 'Isabel', 'Isla', 'Ivana', 'Jade', 'Jasmin', 'Jolie',
  'Julia', 'Juliette', 'Karina', 'Katarina', 'Kira', 'Lara', 'Laura', 'Layla', 'Lea', 'Leonie',
  'Liana', 'Lila', 'Livia', 'Lola', 'Lorena', 'Luana', 'Lucia', 'Luna', 'Lydia', 'Madeleine',
  'Maja', 'Mara', 'Margot', 'Marina', 'Maya', 'Melina', 'Mia', 'Mila', 'Mira', 'Monica',
  'Nadia', 'Naomi', 'Natalia', 'Nina', 'Noemi', 'Olivia', 'Paloma', 'Paula', 'Penelope', 'Rebecca',
  'Rosa', 'Sabrina', 'Sara', 'Serena', 'Sienna', 'Simone', 'Sofia', 'Stella', 'Svetlana', 'Talia',
  'Tamara', 'Tatiana', 'Tessa', 'Valentina', 'Valeria', 'Vanessa', 'Vera', 'Victoria', 'Viola', 'Ximena',
  'Yasmin', 'Yvonne', 'Zara', 'Zoe',
];

// prettier-ignore
export const MALE_NAMES = [
  'Adam', 'Adrian', 'Alejandro', 'Alex', 'Andre', 'Antonio', 'Ben', 'Bruno', 'Carlos', 'Christian',
  'Damian', 'Daniel', 'David', 'Diego', 'Dominic', 'Elias', 'Emil', 'Enzo', 'Erik', 'Fabian',
  'Felix', 'Finn', 'Gabriel', 'Hugo', 'Ivan', 'Jack', 'Jake', 'James', 'Javier', 'Jonas',
  'Julian', 'Kai', 'Leon', 'Liam', 'Lorenzo', 'Lucas', 'Luca', 'Marco', 'Mateo', 'Max',
  'Milan', 'Nico', 'Noah', 'Oliver', 'Oscar', 'Pablo', 'Rafael', 'Raul', 'Ryan', 'Samuel',
  'Sebastian', 'Stefan', 'Theo', 'Thomas', 'Tobias', 'Victor', 'Vincent', 'Xavier', 'Yannick', 'Zack',
];

// prettier-ignore
export const TRANS_NAMES = [
  'Alexis', 'Alicia', 'Amber', 'Angel', 'Barbie', 'Bella', 'Brenda', 'Candy', 'Chanel', 'Cleo',
  'Crystal', 'Dalia', 'Dana', 'Desiree', 'Dior', 'Electra', 'Esmeralda', 'Eden', 'Gia', 'Ivy',
  'Jessie', 'Kimberly', 'Lexi', 'Lilith', 'Lorelei', 'Mandy', 'Marilyn', 'Melody', 'Nicole', 'Nikita',
  'Paris', 'Raquel', 'Roxy', 'Ruby', 'Samantha', 'Scarlett', 'Shakira', 'Sky', 'Tiffany', 'Venus',
  'Yara', 'Zaira',
];

// prettier-ignore
export const STAGE_SURNAMES = [
  'Ambrose', 'Amour', 'Aster', 'Avery', 'Bardot', 'Beaumont', 'Bell', 'Belmonte', 'Blake', 'Blanc',
  'Bloom', 'Bonnet', 'Brooks', 'Cadence', 'Carter', 'Castell', 'Cerise', 'Chase', 'Cole', 'Cruz',
  'Dahl', 'Dawn', 'Delacroix', 'Delaney', 'Devereux', 'Diaz', 'Dubois', 'Ellis', 'Ember', 'Evans',
  'Fairfax', 'Fontaine', 'Ford', 'Fox', 'Gale', 'Garnet', 'Grace', 'Gray', 'Hale', 'Harlow',
  'Hart', 'Hayes', 'Holloway', 'Ivory', 'Jade', 'Jolie', 'Keller', 'Knight', 'Lacroix', 'Lake',
  'Lane', 'Larkin', 'Laurent', 'Leclair', 'Lennox', 'Lind', 'Lux', 'Madison', 'Marin', 'Marlowe',
  'Martel', 'Meadows', 'Mercer', 'Monroe', 'Moreau', 'Morgan', 'Navarro', 'Noir', 'North', 'Novak',
  'Oakley', 'Orlova', 'Paige', 'Parker', 'Pearl', 'Perrin', 'Quinn', 'Raine', 'Reed', 'Reyes',
  'Rhodes', 'Rivera', 'Rivers', 'Rose', 'Rousseau', 'Russo', 'Sage', 'Santos', 'Satin', 'Shaw',
  'Sinclair', 'Snow', 'Sol', 'Sterling', 'Stone', 'Storm', 'Summers', 'Swan', 'Sylvan', 'Taylor',
  'Thorne', 'Valdez', 'Vale', 'Valentine', 'Vance', 'Vega', 'Velvet', 'Vesper', 'Vidal', 'Villa',
  'Vincent', 'Voss', 'Wilde', 'Winter', 'Wolfe', 'Wren', 'York', 'Young', 'Zane', 'Zeller',
];
